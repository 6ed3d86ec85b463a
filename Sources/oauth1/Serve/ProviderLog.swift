import CommandLineSupport
import Foundation
import NetworkClient

/// The request log of `oauth1 serve --log FILE`: one JSON object a line per request answered,
/// appended, so that a test or a developer can see what the provider decided without reading
/// its answers.
///
/// Each line holds `time` (RFC 3339, UTC), `method`, `path` (without the query, which may carry
/// `oauth_signature` or a request token), `endpoint` (`request_token`, `authorize`,
/// `access_token`, `resource`), `status`, `outcome` (`valid`, an `oauth_problem` such as
/// `signature_invalid`, `issued_request_token`, `authorized`, `refused_by_server` for a request
/// the loopback server refused before it was read whole, …), and when known
/// `transmission` (`header`, `query`, `body`), `consumer_key`, `token` and `signature_method`.
/// Never a secret, a signature, a verifier, a body or a header: what identifies, not what proves.
///
/// Writes go through ``CheckedOutput``: whole lines, never interleaved, and a failing disk is
/// reported once on standard error instead of stopping the server.
///
/// ```swift
/// let log = try ProviderLog(path: "/tmp/provider.jsonl")
/// log.record(ProviderLog.Entry(method: "GET", target: "/items?oauth_signature=…"))  // path "/items"
/// ```
final class ProviderLog: Sendable {
  /// One answered request.
  struct Entry: Sendable {
    /// `nil` for a request refused before its request line was read.
    var method: String?
    /// The path, the query left out.
    var path: String
    var endpoint: String?
    var status = 0
    var outcome: String?
    var transmission: String?
    var consumerKey: String?
    var token: String?
    var signatureMethod: String?

    /// The most characters of a value the request chose (a consumer key, a token, a path) a
    /// line holds; longer ones are cut with "…".
    static let maximumValueLength = 200

    /// An entry for a request to `target` (`/path?query`): only its path is kept.
    init(method: String?, target: String) {
      self.method = method
      path = String(target.prefix { $0 != "?" })
    }

    /// The entry's JSON line, with a newline.
    func line(at time: Date) -> Data {
      var object: [String: Any] = ["time": time.formatted(.iso8601), "status": status]
      let optional: [(String, String?)] = [
        ("path", path), ("method", method), ("endpoint", endpoint), ("outcome", outcome), ("transmission", transmission),
        ("consumer_key", consumerKey),
        ("token", token),
        ("signature_method", signatureMethod),
      ]
      for (name, value) in optional {
        guard let value else { continue }
        // A hostile request's key may be kilobytes long: a log line stays short.
        object[name] = value.count > Self.maximumValueLength ? value.prefix(Self.maximumValueLength) + "…" : value
      }
      let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
      return data + Data("\n".utf8)
    }
  }

  /// Why the log's file could not be opened.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  private let output: CheckedOutput
  private let reported = Locked(false)

  /// A log appending to the file at `path` (created with mode 0600 when missing).
  init(path: String) throws(Failure) {
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw Failure(description: "cannot open the log \(path): \(String(cString: strerror(errno))); check that its folder exists and is writable")
    }
    output = CheckedOutput(descriptor: descriptor, naming: path)
  }

  /// Appends `entry`; the first failure to write is said once on standard error.
  func record(_ entry: Entry) {
    guard !output.write(entry.line(at: Date())) else { return }
    let first = reported.withLock { reported in
      defer { reported = true }
      return !reported
    }
    if first, let failure = output.failure { Output.error("the request log stopped: \(failure)") }
  }
}
