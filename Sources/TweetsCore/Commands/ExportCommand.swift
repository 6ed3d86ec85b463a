import CommandLineSupport
import Foundation
import XArchive

/// `tweets export`: an archive (`--db`) or X's JSON lines as one CSV table, one row per post,
/// with the columns of twarc-csv 0.7.2 in its order and its values, so that what was built on
/// twarc-csv's tables (R, pandas, spreadsheets) reads it unchanged.
struct ExportCommand: TweetsCommand {
  /// The table formats `export` writes.
  enum Format: String, CaseIterable {
    /// twarc-csv's CSV.
    case csv
  }

  let name = "export"
  let shared: SharedOptions = [.session, .database]
  static let format = Option<Format>.value(
    "format", placeholder: "FORMAT", default: .value(.csv), help: "\(.default) (default): twarc-csv's columns and values.", recorded: .omitted,
    .choice(expecting: "csv"))
  static let output = Option<URL?>.value(
    "output", short: "o", placeholder: "FILE", help: "Write the table to FILE (whole, or not at all) instead of standard output.",
    recorded: .omitted, .file)
  static let columns = Option<[String]?>.value(
    "columns", placeholder: "LIST", help: "Only these columns, in this order, comma-separated (default: all of twarc-csv's).",
    recorded: .omitted, .list)
  static let escapeFormulas = Option.flag(
    "escape-formulas",
    help:
      "Write a text cell that begins with =, +, -, @, a tab or a carriage return with a leading ' (a spreadsheet runs it as a formula otherwise).",
    recorded: .omitted)
  var spec: CommandSpec {
    makeSpec(
      summary: "Write an archive (--db) or X's JSON lines as a CSV table, one row per post, with twarc-csv's columns.",
      options: [Self.format, Self.output, Self.columns, Self.escapeFormulas],
      positionals: [
        PositionalSpec(
          "file", help: "JSON lines: X's responses (--format raw, twarc2's files) or flattened posts; \"-\" for standard input.", optional: true)
      ],
      discussion: """
        The columns and values are twarc-csv 0.7.2's with its defaults (the author's fields, the
        replied-to, retweeted and quoted authors, a retweet with its original's text and counts,
        entities as lists): examples: tweets export --db climate.sqlite -o climate.csv;
        tweets search climate --format raw > pages.jsonl; tweets export pages.jsonl --columns id,text.
        A post's text may begin like a spreadsheet formula (=HYPERLINK(...)): twarc-csv writes it
        as it is, and so does export, saying on standard error how many such cells it wrote;
        --escape-formulas writes them with a leading ', which spreadsheets show as text.
        """)
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    _ = try arguments.value(Self.format)
    let columns = try Self.chosenColumns(try arguments.value(Self.columns))
    let file = arguments.positionals.first
    if session.options.database != nil && file != nil { throw UsageError("give --db FILE or a JSON-lines file, not both") }
    if session.options.database == nil && file == nil { throw UsageError("give --db FILE, a JSON-lines file, or - for standard input") }
    let destination = try TableDestination(file: try arguments.value(Self.output), terminal: session.terminal)
    do {
      return try write(arguments, session, columns: columns, to: destination)
    } catch {
      destination.abandon()
      throw error
    }
  }

  private func write(_ arguments: ParsedArguments, _ session: Session, columns: [String], to destination: TableDestination) throws -> ExitCode {
    let file = arguments.positionals.first
    let writer = TwarcCSVWriter(columns: columns, escapesFormulas: arguments[Self.escapeFormulas], sink: destination.write)
    var skipped = 0
    if let database = session.options.database {
      guard FileManager.default.fileExists(atPath: database.path) else { throw UsageError("no archive at \(database.path)") }
      let archive = try TweetArchive(path: database.path)
      defer { archive.close() }
      // One post per batch line: the rows twarc-csv writes from the same posts, one per line.
      try archive.forEachPost { post throws(ArchiveError) in
        writer.add(line: try ArchiveFlattening.post(post, in: archive).map { [$0] } ?? [])
      }
    } else if let file {
      let input = try InputLines(file: file, terminal: session.terminal)
      while let line = input.next() {
        // A table that can no longer be written ends the reading (standard input may not end).
        try destination.check()
        // Blank lines are no input line to twarc-csv either (they do not count in a batch).
        if line.allSatisfy(\.isWhitespace) { continue }
        let value: PythonJSON
        do {
          value = try PythonJSON.parse(line.utf8)
        } catch {
          skipped += 1
          if skipped <= 10 { session.terminal.err("tweets export: line \(input.lineNumber) is not JSON (\(error)): skipped") }
          continue
        }
        if Self.isTweetsRecord(value) {
          throw UsageError(
            "line \(input.lineNumber) of \(file) is a post as tweets --format jsonl writes it, which keeps less than X sent "
              + "(no cashtags, annotations, media sizes, referenced authors' ids): export reads X's own JSON: "
              + "fetch with --format raw (or --db) and export that")
        }
        writer.add(line: TwarcFlattening.posts(in: value))
      }
    }
    writer.finish()
    try destination.finish()
    var summary = "tweets export: \(TweetWriter.count(writer.rows, "row"))"
    if writer.duplicates > 0 { summary += ", \(writer.duplicates) duplicate posts left out" }
    if skipped > 0 { summary += ", \(TweetWriter.count(skipped, "line")) not JSON skipped" }
    session.terminal.err(summary)
    if writer.formulaCells > 0 {
      let cells = TweetWriter.count(writer.formulaCells, "text cell")
      session.terminal.err(
        writer.escapesFormulas
          ? "tweets export: \(cells) began with =, +, -, @, a tab or a carriage return: written with a leading ' (--escape-formulas)"
          : "tweets export: warning: \(cells) \(writer.formulaCells == 1 ? "begins" : "begin") with =, +, -, @, a tab or a carriage return, "
            + "which a spreadsheet may run as a formula; written as twarc-csv writes them: add --escape-formulas to write them with a leading '")
    }
    return .success
  }

  /// Whether `line` is a post in `tweets`' own JSON (`--format jsonl`: `metrics`, an `author`
  /// object without `author_id`), not X's: twarc-csv's rows need X's fields.
  static func isTweetsRecord(_ line: PythonJSON) -> Bool {
    guard line.fields != nil, line["data"] == nil, line["includes"] == nil else { return false }
    return (line["metrics"] != nil && line["public_metrics"] == nil) || (line["author"] != nil && line["author_id"] == nil)
  }

  /// The columns `--columns` names, each checked; all of twarc-csv's without it.
  static func chosenColumns(_ given: [String]?) throws -> [String] {
    guard let given else { return TwarcColumns.all }
    if given.isEmpty { throw UsageError("--columns needs at least one column") }
    for column in given where !TwarcColumns.known.contains(column) {
      throw UsageError("--columns: no column \(CommandSpec.shown(column)); the columns are: \(TwarcColumns.all.joined(separator: ","))")
    }
    return given
  }
}
