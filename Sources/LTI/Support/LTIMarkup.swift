/// Escapes text for XML and HTML, in element content and quoted attribute values alike: the
/// one escaper of the POX messages and the auto-submitting forms, public so that a tool's own
/// pages (a launch's user name, a platform's description) escape as the library does.
///
/// ```swift
/// LTIMarkup.escape(#"<b class="x">Tom & Jerry's</b>"#)  // &lt;b class=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/b&gt;
/// ```
public enum LTIMarkup {
  /// `text` with `&`, `<`, `>`, `"` and `'` escaped as entities.
  public static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.append(character)
      }
    }
    return out
  }
}
