import Foundation
import PercentEncoding

/// Joins a base URL and a request path, and appends the query, encoding names and values with
/// the strict RFC 3986 set (so `+` and `*` arrive as `%2B` and `%2A`).
enum URLBuilder {
  static func url(base: URL, path: String, query: [QueryItem]) throws(NetworkError) -> URL {
    var text = base.absoluteString
    // The base's own query and fragment, if any, cannot take a path after them.
    if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) {
      text = String(text[..<cut])
    }
    while text.hasSuffix("/") { text.removeLast() }
    let relative = path.drop { $0 == "/" }
    if !relative.isEmpty || path.hasPrefix("/") || text.split(separator: "/").count <= 2 {
      text += "/" + PercentEncoding.encodePath(relative)
    }
    if !query.isEmpty {
      text +=
        "?"
        + query.map { item in
          PercentEncoding.encode(item.name) + (item.value.map { "=" + PercentEncoding.encode($0) } ?? "")
        }.joined(separator: "&")
    }
    guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
      throw .invalidRequest(reason: "\"\(path)\" joined to \(base.absoluteString) gives \"\(text)\", which is not a valid URL")
    }
    return url
  }
}
