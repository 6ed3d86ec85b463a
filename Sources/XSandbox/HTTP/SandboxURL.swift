import Foundation
import OAuth1
import PercentEncoding

/// The parts of a request URL the sandbox routes on, percent-decoded.
struct SandboxURL {
  /// The path as sent (still encoded), from its first `/2/`, `/1.1/` or `/oauth/` on, so a base
  /// URL with a path of its own (`https://proxy.example/x-api/`) works too.
  let path: String
  /// The path's segments after the leading `/`, each decoded.
  let segments: [String]
  /// Query pairs in order, decoded (`+` as space, like a form).
  let query: [(String, String)]

  init?(_ url: URL) {
    guard let components = URLComponents(string: url.absoluteString) else { return nil }
    var path = components.percentEncodedPath
    if !Self.isAPIPath(path) {
      for marker in ["/2/", "/1.1/", "/oauth/"] {
        if let range = path.range(of: marker) {
          path = String(path[range.lowerBound...])
          break
        }
      }
    }
    self.path = path
    segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
      OAuthPercentEncoding.decode($0) ?? String($0)
    }
    query = Self.pairs(components.percentEncodedQuery ?? "")
  }

  private static func isAPIPath(_ path: String) -> Bool {
    path.hasPrefix("/2/") || path.hasPrefix("/1.1/") || path.hasPrefix("/oauth/")
  }

  /// `a=1&b=x+y` → `[("a", "1"), ("b", "x y")]`; blank values kept.
  static func pairs(_ text: String) -> [(String, String)] {
    PercentEncoding.decodeForm(text).map { ($0.name, $0.value) }
  }
}

extension Array where Element == (String, String) {
  /// Name → value, the first occurrence winning (as X reads repeated parameters).
  var firstValues: [String: String] {
    var result: [String: String] = [:]
    for (name, value) in self where result[name] == nil { result[name] = value }
    return result
  }
}

/// The media type of a `Content-Type` value, lowercased, without parameters.
func mediaType(_ contentType: String?) -> String {
  (contentType ?? "").split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
}

extension XSandbox {
  /// `scheme://host:port` of `url`: the origin a request arrived at (its `Host`), where the URLs
  /// the sandbox hands out on the API host point.
  static func origin(of url: URL) -> String {
    let scheme = url.scheme ?? "http"
    let host = url.host.map { $0.contains(":") ? "[\($0)]" : $0 } ?? "127.0.0.1"
    return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
  }
}
