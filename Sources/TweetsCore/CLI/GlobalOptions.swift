import CommandLineSupport
import Foundation
import XAPI

/// The options every `tweets` command takes, and what they resolve to.
public struct GlobalOptions: Sendable {
  public enum APIVersion: String, Sendable {
    case v2 = "v2"
    case v1 = "1.1"
  }

  static let specs: [OptionSpec] = [
    .value("base-url", placeholder: "URL", help: "API base URL (default https://api.x.com; env TWEETS_BASE_URL)."),
    .value("api", placeholder: "v2|1.1", help: "API version for timelines, search, show and post (default v2)."),
    .value("profile", placeholder: "NAME", help: "Credentials profile (default \"default\", \"sandbox\" with --sandbox; env TWEETS_PROFILE)."),
    .value(
      "config-dir", placeholder: "DIR",
      help: "Where credentials.json lives (default $XDG_CONFIG_HOME/tweets or ~/.config/tweets; env TWEETS_CONFIG_DIR)."),
    .value("format", placeholder: "FORMAT", help: "text (default), json, jsonl or csv."),
    .flag("json", help: "Same as --format json."),
    .value("limit", placeholder: "N", help: "At most N tweets (default 20)."),
    .flag("all", help: "Follow pagination to the end."),
    .value("since-id", placeholder: "ID", help: "Only tweets newer than ID."),
    .value("until-id", placeholder: "ID", help: "Only tweets older than ID."),
    .flag("no-wait", help: "On a rate limit, fail (exit 5) instead of waiting."),
    .value("max-wait", placeholder: "SECONDS", help: "Longest wait for a rate limit to reset (default 900)."),
    .value("timeout", placeholder: "SECONDS", help: "Seconds to wait for each response (default 30)."),
    .flag("verbose", short: "v", help: "Log each request, status, rate limit and signature base string to stderr (secrets redacted)."),
    .flag("sandbox", help: "Use the built-in offline X API: no network, no account needed."),
    .value("consumer-key", placeholder: "KEY", help: "Your app's consumer key (env X_CONSUMER_KEY)."),
    .value("consumer-secret", placeholder: "SECRET", help: "Your app's consumer secret (env X_CONSUMER_SECRET)."),
  ]

  public var baseURL: URL
  public var api: APIVersion
  public var profileName: String
  public var configDirectory: URL
  public var format: OutputFormat
  /// `nil` with `--all`.
  public var limit: Int?
  public var sinceID: String?
  public var untilID: String?

  /// `--since-id` and `--until-id` as v1.1 asks for them: `max_id` is inclusive, so it is the
  /// id just before `--until-id`.
  var v1Window: V1TimelineOptions {
    V1TimelineOptions(sinceID: sinceID, maxID: untilID.flatMap(V1TimelineOptions.inclusive(before:)))
  }
  public var noWait: Bool
  public var maxWait: TimeInterval
  public var timeout: TimeInterval
  public var verbose: Bool
  public var sandbox: Bool
  public var consumerKey: String?
  public var consumerSecret: String?

  init(_ arguments: ParsedArguments, environment: [String: String]) throws {
    let urlText = arguments.value("base-url") ?? environment["TWEETS_BASE_URL"] ?? XClient.defaultBaseURL.absoluteString
    guard let url = URL(string: urlText), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
      throw UsageError("--base-url must be an http or https URL, not \"\(urlText)\"")
    }
    baseURL = url
    switch arguments.value("api") ?? "v2" {
    case "v2", "2": api = .v2
    case "1.1", "v1.1", "1": api = .v1
    case let other: throw UsageError("--api takes v2 or 1.1, not \"\(other)\"")
    }
    sandbox = arguments.flag("sandbox")
    profileName = arguments.value("profile") ?? environment["TWEETS_PROFILE"] ?? (sandbox ? "sandbox" : "default")
    configDirectory = arguments.value("config-dir").map { URL(fileURLWithPath: $0) } ?? ProfileStore.defaultDirectory(environment: environment)
    if arguments.flag("json") {
      if let given = arguments.value("format"), given != "json" { throw UsageError("--json and --format \(given) disagree") }
      format = .json
    } else {
      let name = arguments.value("format") ?? "text"
      guard let format = OutputFormat(rawValue: name) else {
        throw UsageError("--format takes text, json, jsonl or csv, not \"\(name)\"")
      }
      self.format = format
    }
    if arguments.flag("all") {
      if arguments.has("limit") { throw UsageError("give --limit or --all, not both") }
      limit = nil
    } else {
      limit = Int(try arguments.integer("limit", in: 1...1_000_000) ?? 20)
    }
    sinceID = try Self.tweetID(arguments, "since-id")
    untilID = try Self.tweetID(arguments, "until-id")
    noWait = arguments.flag("no-wait")
    maxWait = TimeInterval(try arguments.integer("max-wait", in: 0...86_400) ?? 900)
    timeout = TimeInterval(try arguments.integer("timeout", in: 1...3600) ?? 30)
    verbose = arguments.flag("verbose")
    consumerKey = arguments.value("consumer-key") ?? environment["X_CONSUMER_KEY"] ?? environment["TWITTER_CONSUMER_KEY"]
    consumerSecret = arguments.value("consumer-secret") ?? environment["X_CONSUMER_SECRET"] ?? environment["TWITTER_CONSUMER_SECRET"]
  }

  private static func tweetID(_ arguments: ParsedArguments, _ name: String) throws -> String? {
    guard let value = arguments.value(name) else { return nil }
    guard !value.isEmpty, value.count <= 19, value.allSatisfy(\.isASCIIDigit) else {
      throw UsageError("--\(name) takes a tweet id (digits), not \"\(value)\"")
    }
    return value
  }
}

extension Character {
  var isASCIIDigit: Bool { isASCII && isNumber }
}
