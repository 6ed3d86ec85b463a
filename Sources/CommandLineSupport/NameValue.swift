/// `NAME=VALUE` arguments (`-d status=hello`, `--form`, `--query`, `--authorize-param`), split
/// at the first `=`, so that a value may hold `=` itself.
///
/// ```swift
/// let (name, value) = try NameValue.split("q=a=b", option: "-d")  // ("q", "a=b")
/// ```
package enum NameValue {
  /// The name and the value of `text`; a usage error naming `option` when there is no `=`.
  package static func split(_ text: String, option: String) throws(UsageError) -> (name: String, value: String) {
    guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
      throw UsageError("\(option) takes NAME=VALUE, not \(CommandSpec.shown(text))")
    }
    return (String(text[..<equals]), String(text[text.index(after: equals)...]))
  }
}
