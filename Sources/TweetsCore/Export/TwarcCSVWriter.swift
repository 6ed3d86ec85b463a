/// Writes posts as twarc-csv 0.7.2 writes them (`twarc2 csv` with its defaults): a header of
/// the columns, then one row per post, each post once (the first seen), lines ending in `\n`.
///
/// twarc-csv reads 100 lines at a time into one pandas table and prints each batch with
/// `to_csv`; so does this writer, because pandas prints a column by its type in the batch: in a
/// batch where a count is missing from one row, the column is a float column and every count in
/// it prints as `12.0` (a poll's `duration_minutes` among posts without a poll), and where no row
/// lacks it, as `12`. Memory holds one batch, never the whole input.
///
/// ```swift
/// let writer = TwarcCSVWriter(columns: TwarcColumns.all) { print($0, terminator: "") }
/// writer.add(line: TwarcFlattening.posts(in: page))
/// writer.finish()
/// ```
final class TwarcCSVWriter {
  /// twarc-csv's `--batch-size` default: input lines per pandas table.
  static let batchSize = 100

  /// The columns written, in order.
  let columns: [String]
  private let sink: (String) -> Void
  private var batch: [TwarcRow] = []
  private var linesInBatch = 0
  /// The ids written, so that a post seen again is not a second row (twarc-csv's default).
  private var seen = Set<String>()
  /// Rows written.
  private(set) var rows = 0
  /// Posts left out because their id was already written.
  private(set) var duplicates = 0
  /// Objects left out because they have no `id`.
  private(set) var withoutID = 0
  /// Whether text cells a spreadsheet would take for a formula get a leading `'`
  /// (``SpreadsheetFormulas``); twarc-csv writes them as they are, and so does this writer by
  /// default, for its bytes.
  let escapesFormulas: Bool
  /// Text cells written that a spreadsheet would take for a formula: escaped with
  /// ``escapesFormulas``, else as they are (for the caller to say so).
  private(set) var formulaCells = 0

  /// A writer of `columns` to `sink`, which gets the header at once; `escapesFormulas` writes a
  /// text cell that begins like a formula with a leading `'`.
  init(columns: [String], escapesFormulas: Bool = false, sink: @escaping (String) -> Void) {
    self.columns = columns
    self.escapesFormulas = escapesFormulas
    self.sink = sink
    sink(line(columns))
  }

  /// Adds the posts of one input line (a page's posts, or one post).
  func add(line posts: [PythonJSON]) {
    for post in posts {
      let row = TwarcRow(post: post)
      guard let id = row.id else {
        withoutID += 1
        continue
      }
      guard seen.insert(TwarcFlattening.key(id)).inserted else {
        duplicates += 1
        continue
      }
      batch.append(row)
    }
    linesInBatch += 1
    if linesInBatch == Self.batchSize { flush() }
  }

  /// Writes the last batch.
  func finish() { flush() }

  private func flush() {
    defer {
      batch.removeAll(keepingCapacity: true)
      linesInBatch = 0
    }
    guard !batch.isEmpty else { return }
    let floats = Set(columns.filter(isFloatColumn))
    for row in batch {
      sink(line(columns.map { render(row.cells[$0], asFloat: floats.contains($0)) }))
    }
    rows += batch.count
  }

  /// Whether pandas makes `column` a float column in this batch: numbers only, and a gap (a
  /// missing or `None` cell) or a float among them.
  private func isFloatColumn(_ column: String) -> Bool {
    var numbers = false, gap = false
    for row in batch {
      switch row.cells[column] {
      case nil, .none?: gap = true
      case .integer?: numbers = true
      case .double?:
        numbers = true
        gap = true
      case .string?, .bool?, .list?: return false
      }
    }
    return numbers && gap
  }

  /// A cell as pandas prints it after twarc-csv's `_process_dataframe`: a string without `\r`
  /// and with each line break written `\n`, a list as JSON, `True`/`False`, floats as Python.
  /// A string that then begins like a formula (a leading `\r` removed may uncover one) is
  /// counted in ``formulaCells``, and escaped with ``escapesFormulas``.
  private func render(_ cell: TwarcRow.Cell?, asFloat: Bool) -> String {
    switch cell {
    case nil, .none?: return ""
    case .string(let text)?:
      return formulaChecked(pandasText(text))
    case .integer(let digits)?: return asFloat ? PythonJSON.pythonRepr(Double(digits) ?? .nan) : digits
    case .double(let number)?: return PythonJSON.pythonRepr(number)
    case .bool(let flag)?: return flag ? "True" : "False"
    case .list(let json)?: return json
    }
  }

  /// A text cell as written: counted when it begins like a formula, and escaped if asked.
  private func formulaChecked(_ text: String) -> String {
    guard SpreadsheetFormulas.isFormulaLike(text) else { return text }
    formulaCells += 1
    return escapesFormulas ? SpreadsheetFormulas.escaped(text) : text
  }

  /// A string as twarc-csv writes it: without `\r`, each line break written `\n`.
  private func pandasText(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars where scalar != "\r" {
      if scalar == "\n" { out.append(contentsOf: "\\n".unicodeScalars) } else { out.append(scalar) }
    }
    return String(out)
  }

  /// One CSV line as Python's `csv` module writes it (minimal quoting); a line of one empty
  /// field is `""`, so that it is not an empty line.
  private func line(_ fields: [String]) -> String {
    if fields.count == 1 && fields[0].isEmpty { return "\"\"\n" }
    return fields.map(TweetWriter.csvQuoted).joined(separator: ",") + "\n"
  }
}
