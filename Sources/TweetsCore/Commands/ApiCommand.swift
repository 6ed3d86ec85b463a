import CommandLineSupport
import Foundation
import NetworkClient
import XAPI

/// `tweets api METHOD PATH`: any endpoint, signed, printing the body (like twurl); `tweets api
/// --list`: X's operations as the package declares them (``XEndpoint``), with what each costs.
struct ApiCommand: TweetsCommand {
  let name = "api"
  /// The body is printed as it came; `--format` is for `--list` only.
  let shared: SharedOptions = [.signedIn, .format]
  static let list = Option.flag(
    "list", help: "List X's operations (method, path, authentication, price, Enterprise-only) instead of sending a request.")
  static let data = Option.repeatable("data", short: "d", placeholder: "NAME=VALUE", help: "A form-body parameter (signed).")
  static let query = Option.repeatable("query", placeholder: "NAME=VALUE", help: "A query parameter (signed).")
  static let jsonBody = Option.value("json-body", placeholder: "JSON", help: "A JSON body (not signed, as OAuth 1.0a defines).")
  var spec: CommandSpec {
    makeSpec(
      summary: "Send a raw signed request and print the response body.",
      options: [Self.list, Self.data, Self.query, Self.jsonBody],
      positionals: [
        PositionalSpec("method", help: "GET, POST, PUT, DELETE ...", optional: true),
        PositionalSpec("path", help: "The path, e.g. /2/users/me or 1.1/statuses/show.json.", optional: true),
      ],
      discussion: """
        A non-2xx answer prints its body on stdout and exits non-zero. --list prints every
        operation of X's specification the package knows, and the v1.1 and OAuth ones it calls:
        method, path, the authentications X accepts, what X bills (from the price list, with
        pricing.json of the config directory laid over it) and whether X sells it only to
        Enterprise; with --format json, one JSON object per line.
        """)
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    if arguments[Self.list] {
      guard arguments.positionals.isEmpty else { throw UsageError("--list takes no METHOD or PATH") }
      return try listEndpoints(session)
    }
    guard arguments.positionals.count == 2 else { throw UsageError("give a METHOD and a PATH, or --list") }
    guard session.options.format == .text else { throw UsageError("the body is printed as X sent it: --format is for --list only") }
    let method = HTTPMethod(rawValue: arguments.positionals[0])
    guard method.rawValue.allSatisfy({ $0.isLetter }) else { throw UsageError("\"\(arguments.positionals[0])\" is not an HTTP method") }
    var path = arguments.positionals[1]
    var query: [QueryItem] = []
    if let questionMark = path.firstIndex(of: "?") {
      throw UsageError("give query parameters with --query NAME=VALUE, not in the path (\"\(path[questionMark...])\")")
    }
    if path.hasPrefix("http://") || path.hasPrefix("https://") { throw UsageError("give a path; the host is --base-url") }
    path = path.hasPrefix("/") ? path : "/" + path
    for pair in arguments[Self.query] { query.append(try Self.pair(pair, "--query")) }
    let form = try arguments[Self.data].map { try Self.pair($0, "-d") }
    var body: RequestBody = .none
    if let json = arguments[Self.jsonBody] {
      guard form.isEmpty else { throw UsageError("give -d or --json-body, not both") }
      guard (try? JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])) != nil else {
        throw UsageError("--json-body is not valid JSON")
      }
      body = .data(Data(json.utf8), contentType: "application/json")
    } else if !form.isEmpty {
      body = .form(form.map { ($0.name, $0.value ?? "") })
    }

    let (client, _) = try session.client()
    do {
      let response = try await client.rawResponse(Request<HTTPResponse>(method: method, path: path, query: query, body: body))
      session.terminal.writeOut(Self.printable(response.body))
      return .success
    } catch {
      if case .httpStatus(let failure) = error {
        session.terminal.writeOut(Self.printable(failure.body))
        let xError = XError(error)
        session.terminal.err(TerminalText.visible("tweets: error: HTTP \(failure.statusCode): \(xError)"))
        return ExitCode.for(xError) == .success ? .failure : ExitCode.for(xError)
      }
      throw XError(error)
    }
  }

  /// One line per ``XEndpoint`` row: a table for people, or one JSON object per line.
  func listEndpoints(_ session: Session) throws -> ExitCode {
    let pricing = try RunBudget.pricing(in: session.options.configDirectory)
    switch session.options.format {
    case .text:
      for row in XEndpoint.all {
        let columns = [
          row.method.rawValue, row.path, row.authentications.isEmpty ? "none" : row.authentications.map(\.description).joined(separator: ","),
          Self.price(row.charge, pricing), Self.enterprise(row.access) ?? "-",
        ]
        session.terminal.out(columns.joined(separator: "\t"))
      }
    case .json, .jsonl:
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      for row in XEndpoint.all {
        let line = try encoder.encode(Listed(row, pricing: pricing))
        session.terminal.out(String(decoding: line, as: UTF8.self))
      }
    default:
      throw UsageError("tweets api --list prints text or --format json")
    }
    return .success
  }

  /// A row as `--list --format json` prints it.
  struct Listed: Encodable {
    let method: String
    let path: String
    let operation: String
    let authentications: [String]
    let pageSizes: [Int]?
    let price: String
    let billing: String
    let reason: String?
    let enterpriseOnly: String?
    let inSpecification: Bool

    init(_ row: XEndpoint, pricing: XPricing) {
      method = row.method.rawValue
      path = row.path
      operation = row.operation
      authentications = row.authentications.map(\.description)
      pageSizes = row.pageSizes.map { [$0.lowerBound, $0.upperBound] }
      price = ApiCommand.price(row.charge, pricing)
      billing = row.charge.description
      reason = row.charge.reason
      enterpriseOnly = ApiCommand.enterprise(row.access)
      inSpecification = row.inSpecification
    }
  }

  /// What a row costs in words: `$0.005 per post`, `$0.015 per request`, `free`, `unpriced`.
  static func price(_ charge: XEndpoint.Charge, _ pricing: XPricing) -> String {
    switch charge {
    case .free: "free"
    case .unpriced: "unpriced"
    case .resources(let kind, let ownable, _):
      "\(pricing.price(of: kind)) per \(kind.rawValue)" + (ownable ? " (\(pricing.ownedRead) owned)" : "")
    case .streamed(let kind): "\(pricing.price(of: kind)) per \(kind.rawValue) delivered"
    case .request(let kind): "\(pricing.price(of: kind)) per request"
    case .postCreate: "\(pricing.price(of: XRequestKind.postCreate)) per request (\(pricing.price(of: XRequestKind.postCreateWithURL)) with a URL)"
    }
  }

  /// `enterprise-only`, `enterprise-only with quote_tweet_id`, or `nil` for self-serve.
  static func enterprise(_ access: XEndpoint.Access) -> String? {
    switch access {
    case .selfServe: nil
    case .enterprise: "enterprise-only"
    case .enterpriseWith(let option, _): "enterprise-only with \(option)"
    }
  }

  static func pair(_ text: String, _ option: String) throws -> QueryItem {
    let (name, value) = try NameValue.split(text, option: option)
    return (name, value)
  }

  static func printable(_ body: Data) -> String {
    let text = String(decoding: body, as: UTF8.self)
    return text.hasSuffix("\n") || text.isEmpty ? text : text + "\n"
  }
}
