import CommandLineSupport
import Foundation
import NetworkClient

/// Receives the authorization redirect on a loopback redirect URI (RFC 8252 section 7.3): it
/// listens on 127.0.0.1 at exactly the registered port, and takes the first request to the
/// registered path, answering the browser with a short page. Other paths (a favicon) get a 404.
///
/// Start it before sending the user to the authorize URL, so that the redirect finds it.
///
/// ```swift
/// let receiver = try LoopbackRedirectReceiver(redirectURI: login.redirectURI) { (try? login.code(fromRedirect: $0)) != nil }
/// print("Open", login.url)
/// let code = try login.code(fromRedirect: try await receiver.redirect())
/// ```
public final class LoopbackRedirectReceiver: Sendable {
  private let listener: LoopbackListener
  /// The redirect's target once it arrived (`.some(nil)` when none came in time), and the
  /// task waiting for it.
  private let outcome = Locked<(target: String??, waiter: CheckedContinuation<String?, Never>?)>((nil, nil))
  private let timeout: TimeInterval

  /// The port it listens on: the redirect URI's, or the one the system chose for port 0.
  public var port: Int { Int(listener.port) }

  /// Listens for `redirectURI`, which must be `http://127.0.0.1:PORT/PATH` or
  /// `http://localhost:PORT/PATH` (port 0: any free port, see ``port``), and takes connections at once, on a thread of its own (so a
  /// busy process cannot keep the browser waiting), for `timeout` seconds. `accepts` decides
  /// the page the browser shows (a login's ``AuthorizationRequest/code(fromRedirect:)``
  /// succeeding, say).
  public init(redirectURI: String, timeout: TimeInterval = 300, accepts: @escaping @Sendable (String) -> Bool = { _ in true }) throws(OAuth2Error) {
    guard let url = URL(string: redirectURI), url.scheme == "http", ["127.0.0.1", "localhost"].contains(url.host ?? ""), let port = url.port
    else {
      throw .invalidConfiguration(
        "the redirect URI must be a loopback http URL with a port, such as http://127.0.0.1:8976/callback, not \(redirectURI)")
    }
    do {
      listener = try LoopbackListener(port: UInt16(port))
    } catch {
      throw .invalidConfiguration("\(error.description): the redirect URI's port is in use; free it, or register another redirect URI")
    }
    self.timeout = timeout
    let path = url.path.isEmpty ? "/" : url.path
    let listener = self.listener, outcome = self.outcome
    Thread.detachNewThread {
      let target = Self.accept(on: listener, path: path, until: Date().addingTimeInterval(timeout), accepts: accepts)
      let waiter = outcome.withLock { state -> CheckedContinuation<String?, Never>? in
        state.target = .some(target)
        defer { state.waiter = nil }
        return state.waiter
      }
      waiter?.resume(returning: target)
    }
  }

  /// The redirect's request target (`/callback?state=…&code=…`), once it arrives, or
  /// ``OAuth2Error/missingCode(_:)`` when none came in time.
  public func redirect() async throws(OAuth2Error) -> String {
    let target: String? = await withCheckedContinuation { continuation in
      let arrived = outcome.withLock { state -> String?? in
        if let target = state.target { return .some(target) }
        state.waiter = continuation
        return nil
      }
      if let arrived { continuation.resume(returning: arrived) }
    }
    guard let target else { throw .missingCode("no redirect arrived within \(Int(timeout)) s") }
    return target
  }

  /// Stops listening.
  public func close() { listener.close() }

  /// The first request to `path`, answered with a page; others (a favicon) get a 404.
  private static func accept(on listener: LoopbackListener, path: String, until deadline: Date, accepts: (String) -> Bool) -> String? {
    defer { listener.close() }
    while let connection = listener.accept(until: deadline) {
      defer { connection.close() }
      guard let head = connection.readHead(until: Date().addingTimeInterval(10)) else { continue }
      guard head.target.split(separator: "?").first.map(String.init) == path else {
        connection.answer(status: "404 Not Found", contentType: "text/plain; charset=utf-8", body: Data("not the redirect\n".utf8))
        continue
      }
      let accepted = accepts(head.target)
      let text = accepted ? "Logged in: you can close this tab." : "This redirect was refused; the program that asked says why."
      connection.answer(status: accepted ? "200 OK" : "400 Bad Request", contentType: "text/plain; charset=utf-8", body: Data((text + "\n").utf8))
      return head.target
    }
    return nil
  }
}
