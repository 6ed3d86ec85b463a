import Foundation

/// One request as the sandbox's other origin (``SandboxOffsite``) saw it: every header as it
/// arrived, so that a test can check that no credential reached a host other than the API's.
struct SandboxOffsiteRequest: SandboxLogEntry {
  let serial: Int
  let method: String
  /// The request target as sent (`/pbs.twimg.com/media/X.jpg?name=orig`).
  let target: String
  /// The header fields in order, names as sent.
  let headers: [(name: String, value: String)]
  /// The body's size in bytes.
  let bodyBytes: Int
  /// The status answered.
  var status = 0

  /// The control API's JSON of it: `method`, `target`, `headers` (pairs), `body_bytes`, `status`.
  var json: [String: Any] {
    ["method": method, "target": target, "headers": headers.map { [$0.name, $0.value] }, "body_bytes": bodyBytes, "status": status]
  }
}
