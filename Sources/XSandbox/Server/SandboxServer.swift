import CommandLineSupport
import Foundation
import NetworkClient

/// An ``XSandbox`` served over HTTP on 127.0.0.1, so that any program (the real `tweets`, curl,
/// another language's client) can talk to it as to X: `tweets sandbox serve`, and the tests'
/// process-level runs. The scripted faults of the control API really break the connection (a
/// reset, a short body).
///
/// ```swift
/// let server = try SandboxServer(sandbox: XSandbox(controlAPI: true))
/// print(server.baseURL)  // http://127.0.0.1:PORT
/// ```
package final class SandboxServer: Sendable {
  /// The sandbox it serves.
  package let sandbox: XSandbox
  private let server: LoopbackHTTPServer

  /// The header that carries the sandbox's verdict on a request's OAuth 1.0a signature when
  /// ``init(sandbox:port:sendsVerdicts:)`` asks for it: for an independent verifier in front
  /// of the sandbox (the tests' oauthlib proxy) to compare with its own.
  package static let verdictHeader = "X-Sandbox-Verdict"

  /// The port it listens on.
  package var port: UInt16 { server.port }
  /// `http://127.0.0.1:PORT`.
  package var baseURL: URL { server.baseURL }

  /// Serves `sandbox` on 127.0.0.1:`port` (0: any free port) until ``stop()``.
  package init(sandbox: XSandbox, port: UInt16 = 0, sendsVerdicts: Bool = false) throws(LoopbackListener.Failure) {
    self.sandbox = sandbox
    server = try LoopbackHTTPServer(port: port) { received in
      let headers = HTTPHeaders(received.headers.map { ($0.name, $0.value) })
      guard let url = URL(string: "http://\(received.header("Host") ?? "127.0.0.1:\(port)")\(received.target)") else {
        return .init(status: 400, headers: [("Content-Type", "text/plain")], body: Data("unreadable request target\n".utf8))
      }
      let request = HTTPRequest(
        method: HTTPMethod(rawValue: received.method), url: url, headers: headers, body: received.body.isEmpty ? nil : received.body)
      let exchange = await sandbox.exchange(request)
      var answer = exchange.response.headers.filter { $0.0 != "Content-Length" }
      if sendsVerdicts, let verdict = exchange.verdict { answer.append((Self.verdictHeader, verdict)) }
      return .init(
        status: exchange.response.status, headers: answer, body: exchange.response.body, delivery: exchange.delivery, stream: exchange.response.stream
      )
    }
  }

  /// Stops listening; requests under way are answered.
  package func stop() { server.stop() }
}
