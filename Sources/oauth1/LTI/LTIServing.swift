import Foundation
import Loopback
import PercentEncoding

/// What the `oauth1 lti tool` and `oauth1 lti serve` servers share: the URL a request was sent
/// to, a form body's fields, and running until the process is stopped.
enum LTIServing {
  /// The URL `request` was sent to, from its `Host` header (checked, as `oauth1 serve` checks
  /// it) and target: the URL the sender signed.
  static func url(of request: LoopbackHTTPServer.Request, port: UInt16) -> String {
    let host = request.header("host").flatMap { LoopbackProvider.isHost($0) ? $0 : nil } ?? "127.0.0.1:\(port)"
    return "http://\(host)\(request.target)"
  }

  /// The fields of a form body (or query), decoded; `+` is a space.
  static func fields(_ text: some StringProtocol) -> [String: String] {
    var fields: [String: String] = [:]
    for pair in text.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard let name = PercentEncoding.decode(parts[0], plusAsSpace: true), fields[name] == nil else { continue }
      fields[name] = parts.count > 1 ? PercentEncoding.decode(parts[1], plusAsSpace: true) ?? "" : ""
    }
    return fields
  }

  /// Starts `server`'s announcement and keeps the process (and the server) alive; with
  /// `untilStdinCloses`, ends it when standard input closes.
  static func hold(_ server: LoopbackHTTPServer, untilStdinCloses: Bool) async throws -> Never {
    if untilStdinCloses {
      Thread {
        while !FileHandle.standardInput.availableData.isEmpty {}
        exit(0)
      }.start()
    }
    _ = Unmanaged.passRetained(server)
    while true { try await Task.sleep(nanoseconds: 3_600_000_000_000) }
  }

  /// A JSON answer from an `Encodable` value.
  static func json(_ status: Int, _ value: some Encodable) -> LoopbackHTTPServer.Response {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let body = (try? encoder.encode(value)) ?? Data("{}".utf8)
    return .init(status: status, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")], body: body + Data("\n".utf8))
  }
}
