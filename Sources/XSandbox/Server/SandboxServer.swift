import Foundation
import Loopback
import NetworkClient

/// An ``XSandbox`` served over HTTP on 127.0.0.1, so that any program (the real `tweets`, curl,
/// another language's client) can talk to it as to X: `tweets sandbox serve`, and the tests'
/// process-level runs. The scripted faults of the control API really break the connection (a
/// reset, a short body).
///
/// The control API (a sandbox made with `controlAPI`) steers the sandbox: its clock, its
/// answers, its secrets. Over HTTP any local process and any web page the user's browser opens
/// can reach 127.0.0.1, so it answers only a request that carries the server's token in
/// ``controlTokenHeader`` (compared in constant time), whose `Host` is 127.0.0.1, localhost or
/// [::1] with this server's port (a DNS-rebound page's Host names its own domain), whose
/// `Origin`, if any, is such a loopback origin, and whose body, if any, is `application/json`
/// (a page's form can post `text/plain` without asking, not JSON).
///
/// Alongside, on another loopback port, it serves the sandbox's other origin
/// (``SandboxOffsite``): the media files its posts' URLs point to, and presigned uploads.
///
/// ```swift
/// let server = try SandboxServer(sandbox: XSandbox(controlAPI: true))
/// print(server.baseURL, server.controlToken!)  // http://127.0.0.1:PORT, a random token
/// print(server.offsiteURL)                     // http://127.0.0.1:OTHER-PORT
/// ```
package final class SandboxServer: Sendable {
  /// The sandbox it serves.
  package let sandbox: XSandbox
  private let server: LoopbackHTTPServer
  /// The sandbox's other origin (``SandboxOffsite``: the media CDN, presigned storage) on a
  /// port of its own.
  private let offsiteServer: LoopbackHTTPServer
  /// The token a control API request must carry in ``controlTokenHeader``: the one given, or a
  /// random one; `nil` when the sandbox serves no control API.
  package let controlToken: String?

  /// The header that carries the sandbox's verdict on a request's OAuth 1.0a signature when
  /// ``init(sandbox:port:sendsVerdicts:controlToken:limits:)`` asks for it: for an independent
  /// verifier in front of the sandbox (the tests' oauthlib proxy) to compare with its own.
  package static let verdictHeader = "X-Sandbox-Verdict"
  /// The header that carries the control API's token.
  package static let controlTokenHeader = "X-Sandbox-Control-Token"
  /// The shortest control token taken: 16 characters.
  package static let minimumControlTokenLength = 16

  /// The port it listens on.
  package var port: UInt16 { server.port }
  /// `http://127.0.0.1:PORT`.
  package var baseURL: URL { server.baseURL }
  /// The other origin's `http://127.0.0.1:PORT`: where the media URLs point.
  package var offsiteURL: URL { offsiteServer.baseURL }

  /// Serves `sandbox` on 127.0.0.1:`port` (0: any free port) until ``stop()``, within
  /// `limits`; its control API, if it has one, with `controlToken` (a random one when `nil`).
  /// With an `exchangeLog`, every answer it sends is appended there (``SandboxExchangeLog``).
  package init(
    sandbox: XSandbox, port: UInt16 = 0, sendsVerdicts: Bool = false, controlToken: String? = nil,
    limits: LoopbackHTTPServer.Limits = LoopbackHTTPServer.Limits(), exchangeLog: SandboxExchangeLog? = nil
  ) throws(LoopbackListener.Failure) {
    self.sandbox = sandbox
    let token = sandbox.controlAPI ? (controlToken ?? Self.randomToken()) : nil
    self.controlToken = token
    // The port the system chose, known once the listener is open; until then a control request
    // meets port 0 and is refused.
    let boundPort = Locked<UInt16>(port)
    server = try LoopbackHTTPServer(port: port, limits: limits) { received in
      let headers = HTTPHeaders(received.headers.map { ($0.name, $0.value) })
      let listening = boundPort.withLock { $0 }
      guard let url = URL(string: "http://\(received.header("Host") ?? "127.0.0.1:\(listening)")\(received.target)") else {
        return .init(status: 400, headers: [("Content-Type", "text/plain")], body: Data("unreadable request target\n".utf8))
      }
      if let token, XSandbox.isControlRequest(url), let refusal = Self.refuseControl(received, token: token, port: listening) {
        exchangeLog?.record(method: received.method, target: received.target, response: refusal, scripted: nil)
        return refusal
      }
      let request = HTTPRequest(
        method: HTTPMethod(rawValue: received.method), url: url, headers: headers, body: received.body.isEmpty ? nil : received.body)
      let exchange = await sandbox.exchange(request)
      var answer = exchange.response.headers.filter { $0.0 != "Content-Length" }
      if sendsVerdicts, let verdict = exchange.verdict { answer.append((Self.verdictHeader, verdict)) }
      var response = LoopbackHTTPServer.Response(
        status: exchange.response.status, headers: answer, body: exchange.response.body, delivery: exchange.delivery, stream: exchange.response.stream
      )
      if let exchangeLog {
        exchangeLog.record(method: received.method, target: received.target, response: response, scripted: exchange.response.scripted)
        if let stream = response.stream {
          let (method, target, head) = (received.method, received.target, response)
          response.stream = { writer in stream(exchangeLog.recording(writer, method: method, target: target, response: head)) }
        }
      }
      return response
    }
    let listening = server.port
    boundPort.withLock { $0 = listening }
    let offsite = sandbox.offsite
    // Should this throw, the API's server is released, which stops it.
    offsiteServer = try LoopbackHTTPServer(limits: limits) { offsite.answer($0) }
    sandbox.publishMedia(at: offsiteServer.baseURL)
  }

  /// Stops listening, on both origins; requests under way are answered.
  package func stop() {
    server.stop()
    offsiteServer.stop()
  }

  /// 32 random bytes in hexadecimal.
  static func randomToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
  }

  /// Why a control API request is refused (the answer to send), or `nil` to serve it. The
  /// answer never repeats the token or a header's value.
  static func refuseControl(_ request: LoopbackHTTPServer.Request, token: String, port: UInt16) -> LoopbackHTTPServer.Response? {
    func refuse(_ status: Int, _ text: String) -> LoopbackHTTPServer.Response {
      let body = (try? JSONSerialization.data(withJSONObject: ["error": text], options: [.sortedKeys])) ?? Data()
      return .init(status: status, headers: [("Content-Type", "application/json")], body: body)
    }
    guard let host = request.header("Host"), isLoopback(authority: host, port: port) else {
      return refuse(403, "the control API answers only a Host of 127.0.0.1, localhost or [::1] with this server's port, \(port)")
    }
    if let origin = request.header("Origin"), !isLoopback(origin: origin, port: port) {
      return refuse(403, "the control API answers no web page of another origin")
    }
    guard let sent = request.header(controlTokenHeader) else {
      return refuse(401, "send the token the server printed at start (control token: ...) in the \(controlTokenHeader) header")
    }
    guard constantTimeEquals(Array(sent.utf8), Array(token.utf8)) else {
      return refuse(403, "the \(controlTokenHeader) header does not hold this server's token")
    }
    let hasBody = !request.body.isEmpty || !["GET", "HEAD"].contains(request.method)
    if hasBody, mediaType(request.header("Content-Type")) != "application/json" {
      return refuse(415, "the control API takes application/json only; send the body with Content-Type: application/json")
    }
    return nil
  }

  /// `127.0.0.1:PORT`, `localhost:PORT` or `[::1]:PORT` (the port may be left out for 80).
  static func isLoopback(authority: String, port: UInt16) -> Bool {
    let lowered = authority.lowercased()
    return ["127.0.0.1", "localhost", "[::1]"].contains { name in lowered == "\(name):\(port)" || (port == 80 && lowered == name) }
  }

  /// `http://` and a loopback authority with this server's port.
  static func isLoopback(origin: String, port: UInt16) -> Bool {
    let lowered = origin.lowercased()
    return lowered.hasPrefix("http://") && isLoopback(authority: String(lowered.dropFirst("http://".count)), port: port)
  }

  /// Whether `a` and `b` are equal, in a time that depends on their lengths only.
  static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
    for index in 0..<max(a.count, b.count) {
      difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
    }
    return difference == 0 && a.count == b.count
  }
}
