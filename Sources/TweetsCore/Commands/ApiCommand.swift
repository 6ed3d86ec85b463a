import CommandLineSupport
import Foundation
import NetworkClient
import XAPI

/// `tweets api METHOD PATH`: any endpoint, signed, printing the body (like twurl).
struct ApiCommand: TweetsCommand {
  let name = "api"
  /// The body is printed as it came: no --format.
  let shared = SharedOptions.signedIn
  static let data = Option.repeatable("data", short: "d", placeholder: "NAME=VALUE", help: "A form-body parameter (signed).")
  static let query = Option.repeatable("query", placeholder: "NAME=VALUE", help: "A query parameter (signed).")
  static let jsonBody = Option.value("json-body", placeholder: "JSON", help: "A JSON body (not signed, as OAuth 1.0a defines).")
  var spec: CommandSpec {
    makeSpec(
      summary: "Send a raw signed request and print the response body.",
      options: [Self.data, Self.query, Self.jsonBody],
      positionals: [
        PositionalSpec("method", help: "GET, POST, PUT, DELETE ..."),
        PositionalSpec("path", help: "The path, e.g. /2/users/me or 1.1/statuses/show.json."),
      ],
      discussion: "A non-2xx answer prints its body on stdout and exits non-zero.")
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
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

  static func pair(_ text: String, _ option: String) throws -> QueryItem {
    let (name, value) = try NameValue.split(text, option: option)
    return (name, value)
  }

  static func printable(_ body: Data) -> String {
    let text = String(decoding: body, as: UTF8.self)
    return text.hasSuffix("\n") || text.isEmpty ? text : text + "\n"
  }
}
