import Foundation
import NetworkClient

/// What `tweets media download` refuses to fetch: a scheme other than http and https, or a host
/// on this machine or its link (``LocalHosts``), unless the API itself is on such a host
/// (`--base-url` naming a sandbox served on loopback, whose CDN stand-in is there too).
enum MediaURLPolicy {
  /// Why `url` is not fetched as a media file (a scheme other than http and https, a local
  /// host), or `nil`; a local host is allowed when `allowingLocal`.
  static func refusal(_ url: URL, allowingLocal: Bool) -> String? {
    guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
      return "refused \(origin(of: url)): only http and https URLs are downloaded"
    }
    guard let host = url.host, !allowingLocal, LocalHosts.isLocal(host) else { return nil }
    return "refused \(origin(of: url)): a media file is not fetched from this machine or its link "
      + "(loopback, link-local, unspecified addresses), unless --base-url is on this machine too (a sandbox)"
  }

  /// How a refused URL is named in a message: `scheme://host[:port]`, never its path and query.
  private static func origin(of url: URL) -> String {
    guard let host = url.host else { return "a URL without a host" }
    return "\(url.scheme ?? "?")://\(host)" + (url.port.map { ":\($0)" } ?? "")
  }
}
