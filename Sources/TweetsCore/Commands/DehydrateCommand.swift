import CommandLineSupport
import Foundation
import XAPI
import XArchive

/// `tweets dehydrate`: the ids of an archive or of a JSON-lines file, one per line: the form in
/// which X's terms allow a dataset to be shared. `tweets hydrate` is its inverse.
struct DehydrateCommand: TweetsCommand {
  let name = "dehydrate"
  let shared: SharedOptions = [.session, .database]
  static let users = Option.flag("users", help: "The users' ids instead of the posts'.", recorded: .omitted)
  static let since = Option<Date?>.value(
    "since", placeholder: "TIME", help: "Only posts created at or after TIME (ISO 8601; --db).", recorded: .omitted, .time)
  static let until = Option<Date?>.value(
    "until", placeholder: "TIME", help: "Only posts created before TIME (ISO 8601; --db).", recorded: .omitted, .time)
  static let query = Option<String?>.value(
    "query", placeholder: "TEXT", help: "Only posts whose text holds TEXT (--db).", recorded: .omitted, .string)
  var spec: CommandSpec {
    makeSpec(
      summary: "Print the ids of an archive (--db) or of a JSON-lines file, one per line, to share a dataset as X allows.",
      options: [Self.users, Self.since, Self.until, Self.query],
      positionals: [PositionalSpec("file", help: "JSON lines (tweets' jsonl or raw output); standard input for \"-\".", optional: true)],
      discussion: """
        Examples: tweets dehydrate --db climate.sqlite --since 2026-01-01 > ids.txt;
        tweets dehydrate posts.jsonl > ids.txt; tweets hydrate ids.txt --db again.sqlite.
        """)
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let users = arguments[Self.users]
    let filter = TweetArchive.IDFilter(
      since: try arguments.value(Self.since), until: try arguments.value(Self.until), containing: try arguments.value(Self.query))
    if let database = session.options.database {
      if !arguments.positionals.isEmpty { throw UsageError("give --db FILE or a JSON-lines file, not both") }
      guard FileManager.default.fileExists(atPath: database.path) else { throw UsageError("no archive at \(database.path)") }
      let archive = try TweetArchive(path: database.path)
      defer { archive.close() }
      if users && filter != TweetArchive.IDFilter() { throw UsageError("--since, --until and --query select posts: leave them out with --users") }
      var others = 0
      for id in users ? try archive.userIDs() : try archive.postIDs(filter) {
        if Self.isID(id) { session.terminal.out(id) } else { others += 1 }
      }
      Self.report(others, session)
      return .success
    }
    if filter != TweetArchive.IDFilter() { throw UsageError("--since, --until and --query read the archive: give --db FILE") }
    guard let file = arguments.positionals.first else { throw UsageError("give --db FILE, a JSON-lines file, or - for standard input") }
    var seen = Set<String>()
    var others = 0
    func take(_ line: Substring) {
      guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { return }
      for object in AnswerItems.objects(in: Data(line.utf8)) {
        let item = users ? (object["author"] as? [String: Any]) ?? object : object
        guard let id = AnswerItems.id(of: item) else { continue }
        guard Self.isID(id) else {
          others += 1
          continue
        }
        if seen.insert(id).inserted { session.terminal.out(id) }
      }
    }
    if file == "-" {
      while let line = session.terminal.readLine() { take(Substring(line)) }
    } else {
      guard let data = FileManager.default.contents(atPath: file) else { throw UsageError("cannot read \(file)") }
      for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) { take(line) }
    }
    Self.report(others, session)
    return .success
  }

  /// Whether `text` is an id as X writes one: decimal digits only, a value that fits in 64 bits.
  /// Only such ids are printed: the output is read back one id a line (`tweets hydrate`, other
  /// tools, file names), so an `id` holding a line break, a sign, a fraction, a path or
  /// terminal escapes would print as something else than one id.
  static func isID(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } && UInt64(text) != nil
  }

  /// Says on the standard error how many `id`s were not ids and were left out, when any were.
  static func report(_ others: Int, _ session: Session) {
    guard others > 0 else { return }
    session.terminal.err(
      "tweets dehydrate: left out \(others) \(others == 1 ? "id that is" : "ids that are") not an id (decimal digits of at most 64 bits)")
  }
}
