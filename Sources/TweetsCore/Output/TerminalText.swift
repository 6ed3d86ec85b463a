/// Text from a server made fit to show on a terminal. A post, a name, a job's name, a folder's
/// name, a stream connection's fields or an error's message are anyone's text, and a terminal
/// obeys the control characters in what it is given: ESC sequences rewrite the screen or the
/// window's title, move the cursor over earlier lines, and on some terminals set the clipboard
/// or answer back into the shell's input; C1 controls (U+0080–U+009F, CSI among them) do as
/// much on terminals that read them, and a carriage return or a backspace hides what was
/// printed before it on the line. Every such character is shown as ``placeholder`` instead,
/// wherever `tweets` writes server text in its text format.
///
/// ```swift
/// TerminalText.visible("a\u{1B}]0;title\u{07}b")  // "a�]0;title�b"
/// TerminalText.visible("line 1\nline 2", keepingLines: true)  // unchanged
/// ```
package enum TerminalText {
  /// What each control character becomes: U+FFFD REPLACEMENT CHARACTER, visible and no control.
  package static let placeholder: Unicode.Scalar = "\u{FFFD}"

  /// `text` with every control character (C0 but, with `keepingLines`, the line feed and the
  /// tab; DEL; C1) replaced by ``placeholder``. `keepingLines` is for text whose lines and
  /// indentation mean something (a post's text); a one-line field (a name, an id) keeps none.
  package static func visible(_ text: String, keepingLines: Bool = false) -> String {
    func isControl(_ scalar: Unicode.Scalar) -> Bool {
      switch scalar.value {
      case 0x0A, 0x09: !keepingLines
      case 0x00..<0x20, 0x7F..<0xA0: true
      default: false
      }
    }
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var shown = String.UnicodeScalarView()
    for scalar in text.unicodeScalars { shown.append(isControl(scalar) ? placeholder : scalar) }
    return String(shown)
  }
}
