import Foundation

/// How the sandbox's other origin (``SandboxOffsite``) breaks the answer to a path, for tests of
/// a client that must survive a CDN or a storage host: set with the control API's
/// `POST /_control/offsite {"path_prefix", "fault", ...}` and used `times` times (once by
/// default).
///
/// ```swift
/// let fault = try SandboxOffsiteFault(json: ["fault": "slow", "pause": 0.05])
/// ```
struct SandboxOffsiteFault: Sendable {
  /// What goes wrong.
  enum Kind: Sendable, Equatable {
    /// `Content-Length` says the whole file, half of it is sent, then the stream ends (a CDN
    /// that sends a wrong length, or a connection lost mid-file).
    case truncate
    /// The body in ``SandboxOffsiteFault/slowChunkBytes`` chunks with `pause` seconds between
    /// them: a slow body, long enough for a test to kill its client mid-file.
    case slow(pause: Double)
    /// `302 Found` to `location` (another origin, or the same one), as a CDN or storage host
    /// may answer; the client must follow it without carrying a credential there.
    case redirect(location: String)
    /// This status with a short text body (a 403 of an expired URL, a 503).
    case status(Int)
  }

  /// Why a control request's fault is refused.
  struct Invalid: Error, CustomStringConvertible {
    let description: String
  }

  /// The size of a slow body's chunks: 8 KiB.
  static let slowChunkBytes = 8192
  /// The longest pause between two chunks of a slow body (10 s): a fault cannot hold a
  /// server thread for ever.
  static let maxPause = 10.0
  /// The most uses one fault takes (1000).
  static let maxTimes = 1000

  let kind: Kind
  /// How many requests it still breaks.
  var times: Int

  /// A fault of `kind` for the next `times` requests.
  init(kind: Kind, times: Int = 1) {
    self.kind = kind
    self.times = times
  }

  /// The fault a control request describes: `fault` is `truncate`, `slow` (with `pause`
  /// seconds, 0.05 by default), `redirect` (with `location`, an `http(s)` URL) or `status`
  /// (with `status`, 100...599); `times` (1 by default, at most ``maxTimes``).
  init(json: [String: Any]) throws(Invalid) {
    let times = json["times"] as? Int ?? 1
    guard (1...Self.maxTimes).contains(times) else { throw Invalid(description: "times is from 1 to \(Self.maxTimes)") }
    switch json["fault"] as? String {
    case "truncate":
      self.init(kind: .truncate, times: times)
    case "slow":
      let pause = json["pause"] as? Double ?? (json["pause"] as? Int).map(Double.init) ?? 0.05
      guard pause >= 0, pause <= Self.maxPause else { throw Invalid(description: "pause is from 0 to \(Self.maxPause) seconds") }
      self.init(kind: .slow(pause: pause), times: times)
    case "redirect":
      guard let location = json["location"] as? String, let url = URL(string: location), ["http", "https"].contains(url.scheme ?? "") else {
        throw Invalid(description: "a redirect needs a location, an http or https URL")
      }
      self.init(kind: .redirect(location: location), times: times)
    case "status":
      guard let status = json["status"] as? Int, (100...599).contains(status) else { throw Invalid(description: "status is from 100 to 599") }
      self.init(kind: .status(status), times: times)
    default:
      throw Invalid(description: "fault is one of truncate, slow, redirect, status")
    }
  }
}
