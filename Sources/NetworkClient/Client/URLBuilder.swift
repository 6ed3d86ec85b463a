import Foundation
import PercentEncoding

/// Joins a base URL and a request path, and appends the query, encoding names and values with
/// the strict RFC 3986 set (so `+` and `*` arrive as `%2B` and `%2A`).
enum URLBuilder {
  static func url(base: URL, path: String, query: [QueryItem]) throws(NetworkError) -> URL {
    var text = base.absoluteString
    // The base's own query and fragment, if any, cannot take a path after them. With an empty
    // path the base is the whole URL (an absolute endpoint): its raw query is kept as written.
    var baseQuery: Substring = ""
    if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) {
      if path.isEmpty, text[cut] == "?" {
        baseQuery = text[text.index(after: cut)...].prefix { $0 != "#" }
      }
      text = String(text[..<cut])
    }
    if path.isEmpty {
      // The base is the whole URL: its path is kept exactly, trailing slash and all.
      if text.split(separator: "/").count <= 2 && !text.hasSuffix("/") { text += "/" }
    } else {
      while text.hasSuffix("/") { text.removeLast() }
      let relative = path.drop { $0 == "/" }
      if !relative.isEmpty || path.hasPrefix("/") || text.split(separator: "/").count <= 2 {
        text += "/" + PercentEncoding.encodePath(relative)
      }
    }
    let items = query.map { item in
      PercentEncoding.encode(item.name) + (item.value.map { "=" + PercentEncoding.encode($0) } ?? "")
    }
    let fullQuery = (baseQuery.isEmpty ? [] : [String(baseQuery)]) + items
    if !fullQuery.isEmpty {
      text += "?" + fullQuery.joined(separator: "&")
    }
    guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
      throw .invalidRequest(
        reason:
          "\"\(MessageURL.text(path))\" joined to \(MessageURL.text(base.absoluteString)) gives \"\(MessageURL.text(text))\", which is not a valid URL"
      )
    }
    return url
  }
}
