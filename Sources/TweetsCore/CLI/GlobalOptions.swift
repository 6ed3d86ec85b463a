import CommandLineSupport
import DateFormats
import Foundation
import NetworkClient
import XAPI

/// The options several `tweets` commands share (which command takes which: `SharedOptions`),
/// and what they resolve to.
package struct GlobalOptions: Sendable {
  /// Which X API serves timelines, search, show and post (`--api`).
  package enum APIVersion: String, Sendable {
    /// API v2 (`/2/...`): the default.
    case v2 = "v2"
    /// API v1.1 (`/1.1/...`), for accounts and endpoints that still need it.
    case v1 = "1.1"
  }

  // Declared once each, with their type; read through these declarations.
  static let baseURLOption = Option.value("base-url", placeholder: "URL", help: "API base URL (default https://api.x.com; env TWEETS_BASE_URL).")
  static let apiOption = Option.value("api", placeholder: "v2|1.1", help: "API version for timelines, search, show and post (default v2).")
  static let profileOption = Option.value(
    "profile", placeholder: "NAME", help: "Credentials profile (default \"default\", \"sandbox\" with --sandbox; env TWEETS_PROFILE).")
  static let configDirOption = Option.value(
    "config-dir", placeholder: "DIR",
    help: "Where credentials.json lives (default $XDG_CONFIG_HOME/tweets or ~/.config/tweets; env TWEETS_CONFIG_DIR).")
  static let formatOption = Option.value(
    "format", placeholder: "FORMAT", help: "text (default), json, jsonl, csv, or raw (X's own JSON, one response per line).")
  static let jsonOption = Option.flag("json", help: "Same as --format json.")
  static let limitOption = Option.value("limit", placeholder: "N", help: "At most N tweets (default 20).")
  static let allOption = Option.flag("all", help: "Follow pagination to the end.")
  static let sinceIDOption = Option.value("since-id", placeholder: "ID", help: "Only tweets newer than ID.")
  static let untilIDOption = Option.value("until-id", placeholder: "ID", help: "Only tweets older than ID.")
  static let startTimeOption = Option.value(
    "start-time", placeholder: "TIME", help: "Only tweets from this time on (ISO 8601, e.g. 2024-05-01T12:00:00Z or 2024-05-01; v2).")
  static let endTimeOption = Option.value("end-time", placeholder: "TIME", help: "Only tweets before this time (ISO 8601; v2).")
  static let noWaitOption = Option.flag("no-wait", help: "On a rate limit, fail (exit 5) instead of waiting.")
  static let maxWaitOption = Option.value("max-wait", placeholder: "SECONDS", help: "Longest wait for a rate limit to reset (default 900).")
  static let timeoutOption = Option.value("timeout", placeholder: "SECONDS", help: "Seconds to wait for each response (default 30).")
  static let verboseOption = Option.flag(
    "verbose", short: "v", help: "Log each request, status, rate limit and signature base string to stderr (secrets redacted).")
  static let sandboxOption = Option.flag("sandbox", help: "Use the built-in offline X API: no network, no account needed.")
  static let fieldsOption = Option.value(
    "fields", placeholder: "LIST", help: "v2 tweet.fields, comma-separated (default: every field a Tweet holds).")
  static let expansionsOption = Option.value(
    "expansions", placeholder: "LIST", help: "v2 expansions, comma-separated (default: authors, referenced tweets, media).")
  static let outputOption = Option.value(
    "output", short: "o", placeholder: "FILE",
    help: "Write to FILE, whole lines only, with a checkpoint beside it (FILE.checkpoint); for the commands that page.")
  static let resumeOption = Option.flag(
    "resume", help: "Continue from the checkpoint of --output FILE or --db FILE (a fetch) or --thread FILE (a thread), after a crash or a stop.")
  static let databaseOption = Option.value(
    "db", placeholder: "FILE",
    help: "Store what is fetched in an SQLite archive (created if absent; deduplicated on X's ids) instead of printing it.")
  static let consumerKeyOption = Option.value("consumer-key", placeholder: "KEY", help: "Your app's consumer key (env X_CONSUMER_KEY).")
  static let consumerSecretOption = Option.value(
    "consumer-secret", placeholder: "SECRET", help: "Your app's consumer secret (env X_CONSUMER_SECRET).")

  /// Every shared option, whichever commands take it (``SharedOptions``): what may come before
  /// the command's name.
  static var specs: [any OptionDeclaration] { SharedOptions.declarations.map(\.option) }

  /// Where the X API is (`--base-url`, `TWEETS_BASE_URL`, else `https://api.x.com`).
  package var baseURL: URL
  /// `--api`: v2 unless 1.1 is asked for.
  package var api: APIVersion
  /// The credentials profile (`--profile`, `TWEETS_PROFILE`, else `default`, or `sandbox` with `--sandbox`).
  package var profileName: String
  /// Where `credentials.json` lives (`--config-dir`, `TWEETS_CONFIG_DIR`, XDG, else `~/.config/tweets`).
  package var configDirectory: URL
  /// How tweets are written (`--format`, or `--json`).
  package var format: OutputFormat
  /// `nil` with `--all`.
  package var limit: Int?
  /// `--since-id`: only tweets newer than this id (exclusive), as X's `since_id`.
  package var sinceID: String?
  /// `--until-id`: only tweets older than this id (exclusive), as X's `until_id`.
  package var untilID: String?
  /// `--start-time`: only tweets created at or after this instant (X's `start_time`, v2 only).
  package var startTime: Date?
  /// `--end-time`: only tweets created before this instant (X's `end_time`, v2 only).
  package var endTime: Date?

  /// `--fields`: the v2 `tweet.fields` asked for instead of the default ones.
  package var tweetFields: [String]?
  /// `--expansions`: the v2 `expansions` asked for instead of the default ones.
  package var expansions: [String]?

  /// The v2 options of a timeline, search or lookup: the window, and the fields and expansions
  /// (every ``Tweet`` property by default, or `--fields` and `--expansions`).
  var timelineOptions: TimelineOptions {
    var options = TimelineOptions(sinceID: sinceID, untilID: untilID, startTime: startTime, endTime: endTime)
    if let tweetFields { options.tweetFields = tweetFields }
    if let expansions { options.expansions = expansions }
    options.userFields = ["username", "name"]
    return options
  }

  /// `--since-id` and `--until-id` as v1.1 asks for them: `max_id` is inclusive, so it is the
  /// id just before `--until-id`.
  var v1Window: V1TimelineOptions {
    V1TimelineOptions(sinceID: sinceID, maxID: untilID.flatMap(V1TimelineOptions.inclusive(before:)))
  }
  /// `--no-wait`: fail with exit status 5 at a rate limit instead of waiting.
  package var noWait: Bool
  /// `--max-wait`: the most seconds spent waiting, for rate limits and retries together (default 900).
  package var maxWait: TimeInterval
  /// `--timeout`: seconds to wait for each response (default 30).
  package var timeout: TimeInterval
  /// `--verbose`: log each request, status, rate limit and base string to stderr, secrets redacted.
  package var verbose: Bool
  /// `--sandbox`: use the built-in offline X API.
  package var sandbox: Bool
  /// `--output`: the file tweets are appended to, page by page, with its checkpoint beside it.
  package var output: URL?
  /// `--resume`: continue from `--output`'s checkpoint, or `--db`'s last fetch of the command.
  package var resume: Bool
  /// `--db`: the SQLite archive that stores what is fetched (``XArchive``), instead of standard output.
  package var database: URL?
  /// What defines the fetch, as given: the command and its arguments without `--resume`,
  /// `--output FILE`, the credentials (`--consumer-key`, `--consumer-secret`: never written to
  /// a checkpoint or printed) and the options that change only how it runs (`--no-wait`,
  /// `--max-wait`, `--timeout`, `--verbose`, `--config-dir`). `--base-url` is kept without its
  /// user info (`http://user:password@host` is recorded as `http://host`): a checkpoint and the
  /// archive's `fetches` table keep no password, and a resumed run with the user info matches.
  /// A checkpoint records it, so that a resumed run is the same fetch, from any directory,
  /// waiting or not.
  package var commandLine: [String] = []

  /// `arguments` without the options ``commandLine`` leaves out (`--name VALUE`, `--name=VALUE`
  /// and short forms alike).
  static func fetchArguments(_ arguments: [String]) -> [String] {
    let valued: Set<String> = ["--output", "-o", "--db", "--consumer-key", "--consumer-secret", "--max-wait", "--timeout", "--config-dir"]
    let flags: Set<String> = ["--resume", "--no-wait", "--verbose", "-v"]
    var kept: [String] = []
    var skipNext = false
    var baseURLNext = false
    for argument in arguments {
      let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
      if skipNext {
        skipNext = false
      } else if baseURLNext {
        baseURLNext = false
        kept.append(Redaction.removingUserInfo(argument))
      } else if argument == "--" + Self.baseURLOption.name {
        baseURLNext = true
        kept.append(argument)
      } else if name == "--" + Self.baseURLOption.name && argument.contains("=") {
        kept.append(name + "=" + Redaction.removingUserInfo(String(argument.dropFirst(name.count + 1))))
      } else if valued.contains(argument) {
        skipNext = true
      } else if !flags.contains(argument) && !(argument.contains("=") && valued.contains(name)) {
        kept.append(argument)
      }
    }
    return kept
  }
  /// The app's consumer key from `--consumer-key` or `X_CONSUMER_KEY` (`TWITTER_CONSUMER_KEY`), if given.
  package var consumerKey: String?
  /// The app's consumer secret from `--consumer-secret` or `X_CONSUMER_SECRET`; a secret, never printed.
  package var consumerSecret: String?

  init(_ arguments: ParsedArguments, environment: [String: String]) throws {
    let urlText = arguments[Self.baseURLOption] ?? environment["TWEETS_BASE_URL"] ?? XClient.defaultBaseURL.absoluteString
    guard let url = URL(string: urlText), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
      throw UsageError("--base-url must be an http or https URL, not \"\(Redaction.url(urlText))\"")
    }
    baseURL = url
    switch arguments[Self.apiOption] ?? "v2" {
    case "v2", "2": api = .v2
    case "1.1", "v1.1", "1": api = .v1
    case let other: throw UsageError("--api takes v2 or 1.1, not \"\(other)\"")
    }
    sandbox = arguments[Self.sandboxOption]
    profileName = arguments[Self.profileOption] ?? environment["TWEETS_PROFILE"] ?? (sandbox ? "sandbox" : "default")
    configDirectory = arguments[Self.configDirOption].map { URL(fileURLWithPath: $0) } ?? ProfileStore.defaultDirectory(environment: environment)
    if arguments[Self.jsonOption] {
      if let given = arguments[Self.formatOption], given != "json" { throw UsageError("--json and --format \(given) disagree") }
      format = .json
    } else {
      let name = arguments[Self.formatOption] ?? "text"
      guard let format = OutputFormat(rawValue: name) else {
        throw UsageError("--format takes text, json, jsonl, csv or raw, not \"\(name)\"")
      }
      self.format = format
    }
    if arguments[Self.allOption] {
      if arguments.has(Self.limitOption) { throw UsageError("give --limit or --all, not both") }
      limit = nil
    } else {
      limit = Int(try arguments.integer(Self.limitOption, in: 1...1_000_000) ?? 20)
    }
    sinceID = try Self.tweetID(arguments, Self.sinceIDOption)
    untilID = try Self.tweetID(arguments, Self.untilIDOption)
    startTime = try Self.time(arguments, Self.startTimeOption)
    endTime = try Self.time(arguments, Self.endTimeOption)
    if let startTime, let endTime, startTime >= endTime { throw UsageError("--start-time must come before --end-time") }
    if api == .v1 && (startTime != nil || endTime != nil) {
      throw UsageError("--start-time and --end-time need --api v2: v1.1 has no time window (use --since-id and --until-id)")
    }
    tweetFields = try Self.list(arguments, Self.fieldsOption)
    expansions = try Self.list(arguments, Self.expansionsOption)
    if api == .v1 && (tweetFields != nil || expansions != nil) {
      throw UsageError("--fields and --expansions are v2's: v1.1 sends every field (with tweet_mode=extended)")
    }
    noWait = arguments[Self.noWaitOption]
    maxWait = TimeInterval(try arguments.integer(Self.maxWaitOption, in: 0...86_400) ?? 900)
    timeout = TimeInterval(try arguments.integer(Self.timeoutOption, in: 1...3600) ?? 30)
    verbose = arguments[Self.verboseOption]
    output = arguments[Self.outputOption].map { URL(fileURLWithPath: $0) }
    resume = arguments[Self.resumeOption]
    database = arguments[Self.databaseOption].map { URL(fileURLWithPath: $0) }
    // `post --thread FILE --resume` resumes the thread's checkpoint instead.
    if resume && output == nil && database == nil && !arguments.has(PostThread.thread) {
      throw UsageError("--resume needs --output FILE or --db FILE, where the fetch to continue is recorded")
    }
    if output != nil && database != nil {
      throw UsageError("give --output FILE or --db FILE, not both: each records its own checkpoint")
    }
    if database != nil && (arguments.has(Self.formatOption) || arguments[Self.jsonOption]) {
      throw UsageError("--db stores records in the archive and prints none: leave out --format (or drop --db to print them)")
    }
    if output != nil && format == .json {
      throw UsageError("--output appends whole lines: use --format jsonl (one JSON tweet per line), raw, csv or text, not json")
    }
    consumerKey = arguments[Self.consumerKeyOption] ?? environment["X_CONSUMER_KEY"] ?? environment["TWITTER_CONSUMER_KEY"]
    consumerSecret = arguments[Self.consumerSecretOption] ?? environment["X_CONSUMER_SECRET"] ?? environment["TWITTER_CONSUMER_SECRET"]
  }

  /// A comma-separated list (`created_at,lang`); empty items are refused.
  private static func list(_ arguments: ParsedArguments, _ option: Option<String?>) throws(UsageError) -> [String]? {
    guard let text = arguments[option] else { return nil }
    let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    guard !items.contains(where: \.isEmpty) else { throw UsageError("--\(option.name) takes a comma-separated list, not \"\(text)\"") }
    return items
  }

  /// An ISO 8601 time: a date and time with a zone (`2024-05-01T12:00:00Z`, fractions allowed)
  /// or a date alone (`2024-05-01`, midnight UTC).
  private static func time(_ arguments: ParsedArguments, _ option: Option<String?>) throws -> Date? {
    guard let text = arguments[option] else { return nil }
    guard let date = RFC3339.date(fromTimeOrDay: text) else {
      throw UsageError("--\(option.name) takes an ISO 8601 time such as 2024-05-01T12:00:00Z or 2024-05-01, not \"\(text)\"")
    }
    return date
  }

  private static func tweetID(_ arguments: ParsedArguments, _ option: Option<String?>) throws -> String? {
    guard let value = arguments[option] else { return nil }
    guard !value.isEmpty, value.count <= 19, value.allSatisfy(\.isASCIIDigit) else {
      throw UsageError("--\(option.name) takes a tweet id (digits), not \"\(value)\"")
    }
    return value
  }
}

extension Character {
  var isASCIIDigit: Bool { isASCII && isNumber }
}
