import Foundation
import TestSupport
import Testing

/// Each `tweets` command takes the options that mean something to it, and only those: its help
/// lists them, and every shared option it does not take is a usage error (exit status 2) that
/// names the command. The table below is written from what each command does, independently of
/// the declarations it checks.
@Suite("tweets: each command's options", .tags(.processes), .tier(.processes))
struct CommandOptionsTests {
  /// Every option some commands share, and whether it takes a value.
  static let shared: [(name: String, takesValue: Bool)] = [
    ("base-url", true), ("api", true), ("profile", true), ("config-dir", true), ("format", true), ("json", false), ("limit", true),
    ("all", false), ("since-id", true), ("until-id", true), ("start-time", true), ("end-time", true), ("fields", true),
    ("expansions", true), ("no-wait", false), ("max-wait", true), ("timeout", true), ("verbose", false), ("sandbox", false),
    ("output", true), ("resume", false), ("db", true), ("consumer-key", true), ("consumer-secret", true), ("max-cost", true),
  ]

  /// Where the credentials are and how requests are sent and paid for: every command takes them.
  static let session = ["profile", "config-dir", "sandbox", "base-url", "timeout", "verbose", "no-wait", "max-wait", "max-cost"]
  static let signedIn = session + ["consumer-key", "consumer-secret"]
  static let format = ["format", "json"]
  static let pages = ["limit", "all", "output", "resume", "db"]
  static let window = ["since-id", "until-id", "start-time", "end-time"]
  static let tweetFields = ["fields", "expansions"]

  /// Every command, with the options it takes (its own, then the shared ones).
  static let commands: [String: [String]] = [
    "login": [
      "pin", "access-token", "access-token-secret", "oauth2", "client-id", "client-secret", "scopes", "redirect-uri", "no-browser", "authorize-url",
    ]
      + signedIn,
    "migrate": ["client-id", "client-secret", "scopes"] + signedIn,
    "logout": session,
    "whoami": signedIn + ["api"] + format,
    "timeline": signedIn + ["api"] + format + pages + window + tweetFields,
    "search": ["archive", "estimate"] + signedIn + ["api"] + format + pages + window + tweetFields,
    "show": signedIn + ["api"] + format + tweetFields + ["db"],
    "hydrate": signedIn + ["api"] + format + tweetFields + ["output", "resume", "db"],
    "mentions": signedIn + format + pages + window + tweetFields,
    "liked": signedIn + format + pages + tweetFields,
    "bookmarks": ["folder", "folders"] + signedIn + format + pages + tweetFields,
    "bookmark": signedIn,
    "quotes": signedIn + format + pages + tweetFields,
    "list": signedIn + format + pages + tweetFields,
    "likers": signedIn + format + pages,
    "reposters": signedIn + format + pages,
    "reposts": signedIn + format + pages + tweetFields,
    "reposts-of-me": signedIn + format + pages + tweetFields,
    "lists": ["description", "name", "private", "public"] + signedIn + format + pages,
    "dm": ["with", "conversation", "text", "media"] + signedIn + format + ["limit", "all", "output", "resume"],
    "conversation": ["archive", "estimate"] + signedIn + format + pages + window + tweetFields,
    "followers": signedIn + format + pages,
    "following": signedIn + format + pages,
    "users": ["search"] + signedIn + format + pages,
    "blocks": signedIn + format + pages,
    "mutes": signedIn + format + pages,
    "counts": ["granularity"] + session + format + window,
    "post": [
      "media", "alt", "reply-to", "quote", "long", "poll", "poll-minutes", "reply-settings", "edit", "community", "paid-partnership", "made-with-ai",
      "thread", "resume",
    ] + signedIn + ["api"] + format,
    "delete": signedIn,
    "usage": ["days"] + signedIn + format,
    "budget": session,
    "dehydrate": ["users", "since", "until", "query"] + session + ["db"],
    "export": ["format", "output", "columns", "escape-formulas"] + session + ["db"],
    "compliance": ["type", "ids", "poll-interval", "name"] + session + ["db"],
    "media": ["dir", "input", "parallel", "max-bytes", "refetch"] + signedIn + ["db"],
    "api": ["list", "data", "query", "json-body"] + signedIn + format,
    "sandbox": [
      "port", "tweets-per-user", "oauth2-lifetime", "rate-window", "stream-time-scale", "credits", "post-cap", "spelling", "record-exchanges",
      "control",
      "control-token",
    ]
      + session,
    "stream": ["format", "output", "limit", "duration", "tag", "all", "terminate-all", "terminate"] + session + ["db"],
    "webhook": ["port", "output", "max-body", "signed-with", "from", "to"] + signedIn + format + ["db"],
    "activity": ["user", "events", "direction", "webhook", "tag", "output", "limit", "duration"] + signedIn + format + ["db"],
  ]

  func tweets(_ arguments: [String]) async throws -> ProcessResult {
    var environment = ProcessInfo.processInfo.environment
    for key in environment.keys where key.hasPrefix("X_") || key.hasPrefix("TWITTER_") || key.hasPrefix("TWEETS_") {
      environment.removeValue(forKey: key)
    }
    return try await ProcessRunner.run(PackagePaths.executable("tweets"), arguments, environment: environment, timeout: TweetsRunner.hangTimeout)
  }

  /// The long names of the options a help text lists.
  static func listedOptions(_ help: String) -> Set<String> {
    guard let section = help.range(of: "\nOptions:\n") else { return [] }
    return Set(
      help[section.upperBound...].split(separator: "\n").prefix { $0.hasPrefix("  ") }.compactMap { line in
        line.split(separator: " ").first { $0.hasPrefix("--") }.map { String($0.dropFirst(2)) }
      })
  }

  @Test("The overview lists every command the table knows")
  func everyCommandIsChecked() async throws {
    let overview = try await tweets(["help"])
    let listed = overview.stdout.components(separatedBy: "Commands:\n").last?.split(separator: "\n").prefix { $0.hasPrefix("  ") }
      .compactMap { $0.split(separator: " ").first.map(String.init) }.filter { $0 != "help" && $0 != "completions" }
    #expect(Set(listed ?? []) == Set(Self.commands.keys), "\(overview.stdout)")
  }

  @Test("help COMMAND lists exactly the options the command takes", arguments: commands.keys.sorted())
  func helpListsTheCommandsOptions(command: String) async throws {
    let help = try await tweets(["help", command])
    #expect(help.status == 0)
    let expected = Set(Self.commands[command]! + ["help"])
    let listed = Self.listedOptions(help.stdout)
    #expect(
      listed == expected,
      "\(command): listed but not taken \(listed.subtracting(expected).sorted()), missing \(expected.subtracting(listed).sorted())")
  }

  @Test("A shared option a command does not take is a usage error naming the command", arguments: commands.keys.sorted())
  func anOptionNotTakenIsAUsageError(command: String) async throws {
    let takes = Set(Self.commands[command]!)
    for option in Self.shared where !takes.contains(option.name) {
      let argument = "--" + option.name + (option.takesValue ? "=1" : "")
      let result = try await tweets([command, argument])
      #expect(result.status == 2, "\(command) \(argument): \(result.status) \(result.stderr)")
      #expect(
        result.stderr.hasPrefix("tweets: error: tweets \(command) does not take --\(option.name): "),
        "\(command) \(argument): \(result.stderr)")
      #expect(result.stderr.contains("Run `tweets help \(command)` for the options."))
      #expect(result.stdout.isEmpty)
    }
  }

  @Test("The example of the issue: tweets post --limit, before or after the command, and -o")
  func postDoesNotTakeLimit() async throws {
    // The first five that take it, then how many others (each family of issue #44 adds some).
    let others = Self.commands.values.filter { $0.contains("limit") }.count - 5
    for arguments in [["post", "hello", "--limit", "5"], ["--limit", "5", "post", "hello"]] {
      let result = try await tweets(arguments)
      #expect(result.status == 2)
      #expect(
        result.stderr.hasPrefix(
          "tweets: error: tweets post does not take --limit: timeline, search, mentions, liked, bookmarks and \(others) other commands do\n"
        ), "\(result.stderr)")
    }
    let short = try await tweets(["post", "hello", "-o", "out.jsonl"])
    #expect(short.status == 2 && short.stderr.hasPrefix("tweets: error: tweets post does not take -o: timeline, hydrate, search"), "\(short.stderr)")
    // An option no command takes is still unknown, with a suggestion.
    let typo = try await tweets(["post", "hello", "--formt", "json"])
    #expect(typo.status == 2 && typo.stderr.hasPrefix("tweets: error: unknown option --formt (did you mean --format?)"), "\(typo.stderr)")
  }
}
