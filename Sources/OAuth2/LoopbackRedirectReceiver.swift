import Foundation
import Loopback

/// Receives the authorization redirect on a loopback redirect URI (RFC 8252 section 7.3): it
/// listens at exactly the registered port, on 127.0.0.1, or for a `localhost` URI on both
/// 127.0.0.1 and [::1] (a browser may resolve `localhost` to either), and waits for the
/// request to the registered path that carries this login's `state`.
///
/// Why it waits for the state: any process on the machine can request the redirect URI
/// first. Such a request (a wrong `state`, or none) gets an error page and the wait goes on,
/// until the real redirect or the timeout: a forged request cannot end a login, and the code
/// it carries is never exchanged. Other paths (a favicon) get a 404, other methods a 405. The
/// first redirect with the right state ends the wait, whether it carries a code or the
/// provider's refusal (`error=access_denied`), which ``AuthorizationRequest/code(fromRedirect:)``
/// then reports. For the same reason it refuses to start when another process holds the port
/// on either address: a browser could otherwise reach that process instead.
///
/// Any local process can also connect and send nothing: each connection gets at most
/// ``maxHeadBytes`` of head within ``connectionTimeout``, and at most ``maxConnections`` are
/// served at once (503 past it), each on a thread of its own, so an idle one never holds up
/// the browser's. The waiting is the package's one redirect receiver, which `oauth1 login`
/// uses for OAuth 1.0a's verifier too; this type says what an OAuth 2.0 redirect is.
///
/// Start it before sending the user to the authorize URL, so that the redirect finds it.
///
/// ```swift
/// let receiver = try LoopbackRedirectReceiver(login: login)
/// print("Open", login.url)
/// let code = try login.code(fromRedirect: try await receiver.redirect())
/// ```
public final class LoopbackRedirectReceiver: Sendable {
  /// The longest request head taken (16 KiB: a redirect's URL carries a code and a state).
  public static let maxHeadBytes = RedirectReceiver.maxHeadBytes
  /// How long a connection may take to send its request, and to read the page (10 s).
  public static let connectionTimeout: TimeInterval = RedirectReceiver.connectionTimeout
  /// How many connections are served at once (16: a browser opens one or two).
  public static let maxConnections = RedirectReceiver.maxConnections

  private let receiver: RedirectReceiver
  private let timeout: TimeInterval

  /// The port it listens on: the redirect URI's, or the one the system chose for port 0.
  public var port: Int { Int(receiver.port) }

  /// Listens for the redirect of `login` (its redirect URI and its state), for `timeout`
  /// seconds.
  public convenience init(login: AuthorizationRequest, timeout: TimeInterval = 300) throws(OAuth2Error) {
    try self.init(redirectURI: login.redirectURI, state: login.state, timeout: timeout)
  }

  /// Listens for `redirectURI`, which must be `http://127.0.0.1:PORT/PATH` or
  /// `http://localhost:PORT/PATH` (port 0: any free port, see ``port``), and takes connections
  /// at once, on threads of its own (so a busy process cannot keep the browser waiting), for
  /// `timeout` seconds, until a request to PATH carries `state` (the login's
  /// ``AuthorizationRequest/state``).
  public init(redirectURI: String, state: String, timeout: TimeInterval = 300) throws(OAuth2Error) {
    guard let url = URL(string: redirectURI), url.scheme == "http", ["127.0.0.1", "localhost"].contains(url.host ?? ""), let port = url.port,
      let listenPort = UInt16(exactly: port)
    else {
      throw .invalidConfiguration(
        "the redirect URI must be a loopback http URL with a port, such as http://127.0.0.1:8976/callback, not \(redirectURI)")
    }
    self.timeout = timeout
    do {
      receiver = try RedirectReceiver(
        port: listenPort, addresses: url.host == "localhost" ? [.ipv4, .ipv6] : [.ipv4], path: url.path.isEmpty ? "/" : url.path,
        timeout: timeout
      ) { fields in
        guard let sent = fields["state"], RedirectReceiver.constantTimeEquals(sent, state) else {
          return .other(.page(400, "This is not the redirect of the login the program started: it goes on waiting for that one."))
        }
        if fields["code"].map({ !$0.isEmpty }) == true, fields["error"] == nil {
          return .arrived(.page(200, "Logged in: you can close this tab."))
        }
        return .arrived(.page(400, "The authorization was refused; the program that asked says why."))
      }
    } catch {
      throw .invalidConfiguration(
        "\(error.description): the redirect URI's port is in use (on 127.0.0.1 or, for localhost, on [::1]); free it, or register another redirect URI"
      )
    }
  }

  /// The redirect's request target (`/callback?state=…&code=…`), once it arrives, or
  /// ``OAuth2Error/missingCode(_:)`` when none came in time (or ``close()`` ended the wait).
  public func redirect() async throws(OAuth2Error) -> String {
    guard let target = await receiver.redirect() else { throw .missingCode("no redirect arrived within \(Int(timeout)) s") }
    return target
  }

  /// Stops listening; a wait under way ends with ``OAuth2Error/missingCode(_:)``.
  public func close() { receiver.close() }
}
