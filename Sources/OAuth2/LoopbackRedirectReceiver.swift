import CommandLineSupport
import Foundation

/// Receives the authorization redirect on a loopback redirect URI (RFC 8252 section 7.3): it
/// listens on 127.0.0.1 at exactly the registered port, and takes the first request to the
/// registered path, answering the browser with a short page. Other paths (a favicon) get a 404.
///
/// Start it before sending the user to the authorize URL, so that the redirect finds it.
///
/// ```swift
/// let receiver = try LoopbackRedirectReceiver(redirectURI: login.redirectURI)
/// print("Open", login.url)
/// let code = try login.code(fromRedirect: try await receiver.redirect())
/// ```
public final class LoopbackRedirectReceiver: Sendable {
  private let listener: LoopbackListener
  private let path: String

  /// Listens for `redirectURI`, which must be `http://127.0.0.1:PORT/PATH` or
  /// `http://localhost:PORT/PATH`.
  public init(redirectURI: String) throws(OAuth2Error) {
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
    path = url.path.isEmpty ? "/" : url.path
  }

  /// The redirect's request target (`/callback?state=…&code=…`), once it arrives, or
  /// ``OAuth2Error/missingCode(_:)`` after `timeout` seconds. `accepts` decides the page the
  /// browser shows (a login's ``AuthorizationRequest/code(fromRedirect:)`` succeeding, say).
  public func redirect(timeout: TimeInterval = 300, accepts: @escaping @Sendable (String) -> Bool = { _ in true }) async throws(OAuth2Error)
    -> String
  {
    let listener = self.listener, path = self.path
    let target: String? = await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        let deadline = Date().addingTimeInterval(timeout)
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
          listener.close()
          continuation.resume(returning: head.target)
          return
        }
        listener.close()
        continuation.resume(returning: nil)
      }
    }
    guard let target else { throw .missingCode("no redirect arrived within \(Int(timeout)) s") }
    return target
  }

  /// Stops listening.
  public func close() { listener.close() }
}
