/// Cells that a spreadsheet may take for a formula (CSV injection): Excel, LibreOffice and
/// Google Sheets evaluate a cell that begins with `=`, `+`, `-` or `@`, and some strip a leading
/// tab or carriage return first, so a post's text such as `=HYPERLINK("https://evil", "x")` or
/// `=cmd|' /C calc'!A0` becomes a live formula in the reader's spreadsheet. OWASP's advice,
/// followed here: such a cell is written with a leading `'`, which spreadsheets take as "text"
/// and do not show.
///
/// ```swift
/// SpreadsheetFormulas.escaped("=1+1")  // "'=1+1"
/// SpreadsheetFormulas.escaped("1+1")  // "1+1"
/// ```
enum SpreadsheetFormulas {
  /// The first bytes that make a cell a formula to some spreadsheet: `=`, `+`, `-`, `@`, a tab,
  /// a carriage return (OWASP's list).
  static let triggers: Set<UInt8> = [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D]

  /// Whether a spreadsheet may take `cell` for a formula: it begins with one of ``triggers``.
  static func isFormulaLike(_ cell: String) -> Bool {
    cell.utf8.first.map(triggers.contains) ?? false
  }

  /// `cell` with a leading `'` when it ``isFormulaLike(_:)``, else as it is.
  static func escaped(_ cell: String) -> String {
    isFormulaLike(cell) ? "'" + cell : cell
  }
}
