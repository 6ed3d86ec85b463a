import CommandLineSupport
import Foundation
import NetworkClient
import PercentEncoding

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
/// the browser's.
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
  public static let maxHeadBytes = 16_384
  /// How long a connection may take to send its request, and to read the page (10 s).
  public static let connectionTimeout: TimeInterval = 10
  /// How many connections are served at once (16: a browser opens one or two).
  public static let maxConnections = 16

  private let server: LoopbackHTTPServer
  /// The redirect's target once it arrived (`.some(nil)` when none came in time, or the
  /// receiver was closed), and the task waiting for it.
  private let outcome: Locked<(target: String??, waiter: CheckedContinuation<String?, Never>?)>
  private let timeout: TimeInterval

  /// The port it listens on: the redirect URI's, or the one the system chose for port 0.
  public var port: Int { Int(server.port) }

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
    let path = url.path.isEmpty ? "/" : url.path
    let outcome = Locked<(target: String??, waiter: CheckedContinuation<String?, Never>?)>((nil, nil))
    self.outcome = outcome
    self.timeout = timeout
    let limits = LoopbackHTTPServer.Limits(
      maxHeadBytes: Self.maxHeadBytes, maxBodyBytes: 0, headTimeout: Self.connectionTimeout, idleTimeout: Self.connectionTimeout,
      sendTimeout: Self.connectionTimeout, maxConnections: Self.maxConnections)
    // The server is known to the handler once it exists: it stops itself after the redirect.
    let stopper = Locked<LoopbackHTTPServer?>(nil)
    do {
      server = try LoopbackHTTPServer(port: listenPort, addresses: url.host == "localhost" ? [.ipv4, .ipv6] : [.ipv4], limits: limits) {
        request in
        let (response, target) = Self.answer(request, path: path, state: state)
        if let target, Self.settle(outcome, with: target) { stopper.withLock { $0 }?.stop() }
        return response
      }
    } catch {
      throw .invalidConfiguration(
        "\(error.description): the redirect URI's port is in use (on 127.0.0.1 or, for localhost, on [::1]); free it, or register another redirect URI"
      )
    }
    let server = self.server
    stopper.withLock { $0 = server }
    let deadline = Date().addingTimeInterval(timeout)
    Thread.detachNewThread {
      let arrived = outcome.withLock(waitingUntil: { $0.target != nil }, deadline: deadline) { _ in true } ?? false
      if !arrived, Self.settle(outcome, with: nil) { server.stop() }
    }
  }

  /// The redirect's request target (`/callback?state=…&code=…`), once it arrives, or
  /// ``OAuth2Error/missingCode(_:)`` when none came in time (or ``close()`` ended the wait).
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

  /// Stops listening; a wait under way ends with ``OAuth2Error/missingCode(_:)``.
  public func close() {
    server.stop()
    Self.settle(outcome, with: nil)
  }

  /// Records the outcome once and wakes the waiter; `false` if it was recorded already.
  @discardableResult
  private static func settle(_ outcome: Locked<(target: String??, waiter: CheckedContinuation<String?, Never>?)>, with target: String?) -> Bool {
    let (first, waiter) = outcome.withLock { state -> (Bool, CheckedContinuation<String?, Never>?) in
      guard state.target == nil else { return (false, nil) }
      state.target = .some(target)
      defer { state.waiter = nil }
      return (true, state.waiter)
    }
    waiter?.resume(returning: target)
    return first
  }

  /// The page for `request`, and its target when it is this login's redirect.
  private static func answer(_ request: LoopbackHTTPServer.Request, path: String, state: String) -> (LoopbackHTTPServer.Response, String?) {
    func page(_ status: Int, _ text: String) -> LoopbackHTTPServer.Response {
      .init(status: status, headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")], body: Data((text + "\n").utf8))
    }
    let requestPath = request.target.prefix { $0 != "?" && $0 != "#" }
    guard requestPath == path else { return (page(404, "Not the redirect."), nil) }
    guard request.method == "GET" else { return (page(405, "The redirect is a GET."), nil) }
    let query = request.target.dropFirst(requestPath.count + 1).prefix { $0 != "#" }
    var fields: [String: String] = [:]
    for pair in PercentEncoding.decodeForm(query) where fields[pair.name] == nil { fields[pair.name] = pair.value }
    guard let sent = fields["state"], constantTimeEquals(Array(sent.utf8), Array(state.utf8)) else {
      return (page(400, "This is not the redirect of the login the program started: it goes on waiting for that one."), nil)
    }
    if fields["code"].map({ !$0.isEmpty }) == true, fields["error"] == nil {
      return (page(200, "Logged in: you can close this tab."), request.target)
    }
    return (page(400, "The authorization was refused; the program that asked says why."), request.target)
  }

  /// Whether `a` and `b` are equal, in a time that depends on their lengths only.
  private static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
    for index in 0..<max(a.count, b.count) {
      difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
    }
    return difference == 0 && a.count == b.count
  }
}
