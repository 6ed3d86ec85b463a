import CommandLineSupport
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

  // Each declared once: its help, default, conversion and how a stored command line keeps it.
  static let baseURLOption = Option<URL>.value(
    "base-url", placeholder: "URL", default: .value(XClient.defaultBaseURL), environment: ["TWEETS_BASE_URL"],
    help: "API base URL (default \(.default); env \(.environment)).", recorded: .rewritten(Redaction.removingUserInfo), .httpURL)
  static let apiOption = Option<APIVersion>.value(
    "api", placeholder: "v2|1.1", default: .value(.v2), help: "API version for timelines, search, show and post (default \(.default)).",
    .apiVersion)
  static let profileOption = Option<String>.value(
    "profile", placeholder: "NAME",
    default: .computed(shown: "\"default\", \"sandbox\" with --sandbox") { arguments, _ in arguments[sandboxOption] ? "sandbox" : "default" },
    environment: ["TWEETS_PROFILE"], help: "Credentials profile (default \(.default); env \(.environment)).", .profileName)

  /// The longest profile name.
  static let profileNameMaxLength = 64

  /// Whether `name` may name a profile: 1 to ``profileNameMaxLength`` ASCII letters, digits,
  /// `.`, `_`, `-` and `@`, not starting with `.`. A profile's name is a file's name in the
  /// config directory (its ledger, `ledgers/NAME.sqlite`), so it must be one path component
  /// that stays there: no `/`, no `..`, no hidden file, nothing a shell or a file system reads
  /// otherwise.
  ///
  /// ```swift
  /// GlobalOptions.isProfileName("work-account")  // true
  /// GlobalOptions.isProfileName("../../x")       // false
  /// ```
  static func isProfileName(_ name: String) -> Bool {
    !name.isEmpty && name.count <= profileNameMaxLength && !name.hasPrefix(".")
      && name.unicodeScalars.allSatisfy {
        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-@".unicodeScalars.contains($0))
      }
  }
  static let configDirOption = Option<URL>.value(
    "config-dir", placeholder: "DIR",
    default: .computed(shown: "$XDG_CONFIG_HOME/tweets or ~/.config/tweets") { _, environment in
      ProfileStore.defaultDirectory(environment: environment)
    },
    help: "Where credentials.json lives (default \(.default); env TWEETS_CONFIG_DIR).", recorded: .omitted, .file)
  static let formatOption = Option<OutputFormat>.value(
    "format", placeholder: "FORMAT", default: .value(.text),
    help: "\(.default) (default), json, jsonl, csv, or raw (X's own JSON, one response per line).",
    .choice(expecting: "text, json, jsonl, csv or raw"))
  static let jsonOption = Option.flag("json", help: "Same as --format json.")
  static let limitOption = Option<Int>.value(
    "limit", placeholder: "N", default: .value(20), help: "At most N tweets (default \(.default)).", .integer(in: 1...1_000_000))
  static let allOption = Option.flag("all", help: "Follow pagination to the end.")
  static let sinceIDOption = Option<String?>.value("since-id", placeholder: "ID", help: "Only tweets newer than ID.", .tweetID)
  static let untilIDOption = Option<String?>.value("until-id", placeholder: "ID", help: "Only tweets older than ID.", .tweetID)
  static let startTimeOption = Option<Date?>.value(
    "start-time", placeholder: "TIME", help: "Only tweets from this time on (ISO 8601, e.g. 2024-05-01T12:00:00Z or 2024-05-01; v2).", .time)
  static let endTimeOption = Option<Date?>.value("end-time", placeholder: "TIME", help: "Only tweets before this time (ISO 8601; v2).", .time)
  static let noWaitOption = Option.flag("no-wait", help: "On a rate limit, fail (exit 5) instead of waiting.", recorded: .omitted)
  static let maxWaitOption = Option<Int>.value(
    "max-wait", placeholder: "SECONDS", default: .value(900), help: "Longest wait for a rate limit to reset (default \(.default)).",
    recorded: .omitted, .integer(in: 0...86_400))
  static let timeoutOption = Option<Int>.value(
    "timeout", placeholder: "SECONDS", default: .value(30), help: "Seconds to wait for each response (default \(.default)).",
    recorded: .omitted, .integer(in: 1...3600))
  static let verboseOption = Option.flag(
    "verbose", short: "v", help: "Log each request, status, rate limit and signature base string to stderr (secrets redacted).",
    recorded: .omitted)
  static let sandboxOption = Option.flag("sandbox", help: "Use the built-in offline X API: no network, no account needed.")
  static let fieldsOption = Option<[String]?>.value(
    "fields", placeholder: "LIST", help: "v2 tweet.fields, comma-separated (default: every field a Tweet holds).", .list)
  static let expansionsOption = Option<[String]?>.value(
    "expansions", placeholder: "LIST", help: "v2 expansions, comma-separated (default: authors, referenced tweets, media).", .list)
  static let outputOption = Option<URL?>.value(
    "output", short: "o", placeholder: "FILE",
    help: "Write to FILE, whole lines only, with a checkpoint beside it (FILE.checkpoint); for the commands that page.", recorded: .omitted,
    .file)
  static let resumeOption = Option.flag(
    "resume", help: "Continue from the checkpoint of --output FILE or --db FILE (a fetch) or --thread FILE (a thread), after a crash or a stop.",
    recorded: .omitted)
  static let databaseOption = Option<URL?>.value(
    "db", placeholder: "FILE",
    help: "Store what is fetched in an SQLite archive (created if absent; deduplicated on X's ids) instead of printing it.", recorded: .omitted,
    .file)
  static let maxCostOption = Option<USD?>.value(
    "max-cost", placeholder: "USD",
    help:
      "Spend at most USD on X's pay-per-use billing in this run: stop (exit 7) before a request that could pass it (the profile's limit per billing cycle, tweets budget, applies too).",
    recorded: .omitted, .dollars)
  static let consumerKeyOption = Option<String?>.value(
    "consumer-key", placeholder: "KEY", environment: ["X_CONSUMER_KEY", "TWITTER_CONSUMER_KEY"],
    help: "Your app's consumer key (env \(.environment)).", recorded: .omitted, .string)
  static let consumerSecretOption = Option<String?>.value(
    "consumer-secret", placeholder: "SECRET", environment: ["X_CONSUMER_SECRET", "TWITTER_CONSUMER_SECRET"],
    help: "Your app's consumer secret (env \(.environment)).", recorded: .omitted, .string)

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
  /// What defines the fetch, as given: the command and its arguments without the options
  /// declared `recorded: .omitted`: `--resume`, `--output FILE`, the credentials
  /// (`--consumer-key`, `--consumer-secret`: never written to a checkpoint or printed) and the
  /// options that change only how it runs (`--no-wait`, `--max-wait`, `--timeout`, `--verbose`,
  /// `--config-dir`). `--base-url` is kept without its user info (`http://user:password@host` is
  /// recorded as `http://host`): a checkpoint and the archive's `fetches` table keep no password,
  /// and a resumed run with the user info matches. A checkpoint records it, so that a resumed run
  /// is the same fetch, from any directory, waiting or not (``CommandSpec/recordedArguments(_:)``).
  package var commandLine: [String] = []

  /// `--max-cost`: what this run may spend on X's billing; `nil` for the profile's limit, if any.
  package var maxCost: USD?

  /// The app's consumer key from `--consumer-key` or `X_CONSUMER_KEY` (`TWITTER_CONSUMER_KEY`), if given.
  package var consumerKey: String?
  /// The app's consumer secret from `--consumer-secret` or `X_CONSUMER_SECRET`; a secret, never printed.
  package var consumerSecret: String?

  /// The options of `arguments`; `shared` are the groups the command takes: `--output` and
  /// `--format` conflict with `--db` only where `--db` is where fetched records go (a command
  /// that reads an archive, `tweets export`, declares its own `--format` and `--output`).
  init(_ arguments: ParsedArguments, environment: [String: String], shared: SharedOptions = .all) throws {
    baseURL = try arguments.value(Self.baseURLOption, environment: environment)
    api = try arguments.value(Self.apiOption)
    sandbox = arguments[Self.sandboxOption]
    profileName = try arguments.value(Self.profileOption, environment: environment)
    configDirectory = try arguments.value(Self.configDirOption, environment: environment)
    if arguments[Self.jsonOption] {
      if let given = arguments.given(Self.formatOption), given != "json" { throw UsageError("--json and --format \(given) disagree") }
      format = .json
    } else {
      format = try arguments.value(Self.formatOption)
    }
    if arguments[Self.allOption] {
      if arguments.has(Self.limitOption) { throw UsageError("give --limit or --all, not both") }
      limit = nil
    } else {
      limit = try arguments.value(Self.limitOption)
    }
    sinceID = try arguments.value(Self.sinceIDOption)
    untilID = try arguments.value(Self.untilIDOption)
    startTime = try arguments.value(Self.startTimeOption)
    endTime = try arguments.value(Self.endTimeOption)
    if let startTime, let endTime, startTime >= endTime { throw UsageError("--start-time must come before --end-time") }
    if api == .v1 && (startTime != nil || endTime != nil) {
      throw UsageError("--start-time and --end-time need --api v2: v1.1 has no time window (use --since-id and --until-id)")
    }
    tweetFields = try arguments.value(Self.fieldsOption)
    expansions = try arguments.value(Self.expansionsOption)
    if api == .v1 && (tweetFields != nil || expansions != nil) {
      throw UsageError("--fields and --expansions are v2's: v1.1 sends every field (with tweet_mode=extended)")
    }
    noWait = arguments[Self.noWaitOption]
    maxWait = TimeInterval(try arguments.value(Self.maxWaitOption))
    timeout = TimeInterval(try arguments.value(Self.timeoutOption))
    verbose = arguments[Self.verboseOption]
    output = try arguments.value(Self.outputOption)
    resume = arguments[Self.resumeOption]
    database = try arguments.value(Self.databaseOption)
    // `post --thread FILE --resume` resumes the thread's checkpoint instead.
    if resume && output == nil && database == nil && !arguments.has(PostThread.thread) {
      throw UsageError("--resume needs --output FILE or --db FILE, where the fetch to continue is recorded")
    }
    if output != nil && database != nil && shared.contains(.output) {
      throw UsageError("give --output FILE or --db FILE, not both: each records its own checkpoint")
    }
    if database != nil && shared.contains(.format) && (arguments.has(Self.formatOption) || arguments[Self.jsonOption]) {
      throw UsageError("--db stores records in the archive and prints none: leave out --format (or drop --db to print them)")
    }
    if output != nil && format == .json {
      throw UsageError("--output appends whole lines: use --format jsonl (one JSON tweet per line), raw, csv or text, not json")
    }
    maxCost = try arguments.value(Self.maxCostOption)
    consumerKey = try arguments.value(Self.consumerKeyOption, environment: environment)
    consumerSecret = try arguments.value(Self.consumerSecretOption, environment: environment)
  }
}

extension V1TimelineOptions {
  /// v1.1's `max_id` is inclusive; `--until-id` is not.
  static func inclusive(before id: String) -> String? {
    UInt64(id).flatMap { $0 > 0 ? String($0 - 1) : nil }
  }
}
