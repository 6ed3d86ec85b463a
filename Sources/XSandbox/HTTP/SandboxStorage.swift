import Foundation
import NetworkClient

/// The sandbox's stand-in for presigned storage URLs (X's older compliance flow put a job's ids
/// and results on Google Cloud Storage): `/_storage/compliance/JOB/upload|download` with the
/// job's secret in `X-Goog-Signature`, answered before authentication, as storage answers
/// whoever holds the URL. Whether a request brought a credential anyway is logged, for tests
/// that prove none is sent to an origin the user did not name.
extension XSandbox {
  /// Where the storage stand-in's paths begin.
  static let storagePrefix = "/_storage/"

  /// The answer to a request under ``storagePrefix``.
  func storageAnswer(_ request: HTTPRequest, rawPath: String, now: Int64) -> SandboxResponse {
    let parts = rawPath.dropFirst(Self.storagePrefix.count).split(separator: "/").map(String.init)
    let query = SandboxURL.pairs(URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? "").firstValues
    guard parts.count == 3, parts[0] == "compliance", ["upload", "download"].contains(parts[2]),
      (parts[2] == "upload") == (request.method == .put) || (parts[2] == "download" && request.method == .get)
    else { return .text(404, "no such object\n") }
    // Any credential: an Authorization header, or the app's token anywhere in a header.
    let credentialed = request.headers.contains { field in
      field.name.lowercased() == "authorization" || field.value.contains(Self.demoBearerToken)
    }
    return state.withLock { state in
      state.complianceTransfer(
        kind: parts[2], job: parts[1], secret: query["X-Goog-Signature"] ?? "", body: request.body, now: now, credentialed: credentialed)
    }
  }

  /// Tells the sandbox where presigned storage URLs point: the served sandbox's own address.
  package func setStorageOrigin(_ url: URL) {
    let origin = Self.origin(of: url)
    state.withLock { $0.compliance.storageOrigin = origin }
  }

  /// `scheme://host:port` of `url`.
  static func origin(of url: URL) -> String {
    let scheme = url.scheme ?? "http"
    let host = url.host.map { $0.contains(":") ? "[\($0)]" : $0 } ?? "127.0.0.1"
    return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
  }
}
