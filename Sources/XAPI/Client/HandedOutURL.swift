import Foundation
import NetworkClient

/// URLs X hands out in its answers (a compliance job's upload and download URLs) are used as
/// they are, and get the client's credentials only when they are on the origin the user
/// configured: X has described the same URL both as a presigned storage URL, which must get no
/// credential, and as a URL on its API host, which needs the app's bearer token. Deciding by
/// origin (scheme, host and port, RFC 6454) sends a token to no host the user did not name,
/// whatever X's answer says.
///
/// ```swift
/// client.isOwnOrigin(URL(string: "https://api.x.com/2/compliance/jobs/1/upload")!)  // true
/// client.isOwnOrigin(URL(string: "https://storage.googleapis.com/bucket/ids")!)  // false
/// ```
extension XClient {
  /// Whether `url` is on the base URL's origin, so that a request to it may carry this client's
  /// credentials.
  public func isOwnOrigin(_ url: URL) -> Bool {
    guard let origin = HTTPOrigin(url) else { return false }
    return origin == HTTPOrigin(baseURL)
  }

  /// A client for `url` exactly as written (its query kept byte for byte: a presigned URL's
  /// signature covers it): with this client's behaviors when ``isOwnOrigin(_:)``, else with its
  /// retry policy alone. Send it requests with an empty path.
  func handedOut(_ url: URL) -> NetworkClient {
    var configuration = network.configuration
    configuration.baseURL = url
    if !isOwnOrigin(url) { configuration.defaultBehavior = plainBehavior }
    return NetworkClient(configuration: configuration)
  }

  /// Sends `request` (path empty) to a handed-out `url`, see ``handedOut(_:)``.
  func sendHandedOut<Output>(_ request: Request<Output>, to url: URL) async throws(XError) -> Response<Output> {
    do {
      return try await handedOut(url).response(for: request)
    } catch {
      throw XError(error)
    }
  }
}
