import Foundation
import Locking
import PercentEncoding

/// Receives an authorization redirect on a loopback URL, for both tools: OAuth 2.0's code with
/// its `state` (`OAuth2.LoopbackRedirectReceiver`) and OAuth 1.0a's verifier with its
/// `oauth_token` (`oauth1 login --callback loopback`).
///
/// Any process on the machine can request the redirect URL first, so it waits for the one
/// redirect it was started for: `judge` reads each request's query and says whether it is that
/// redirect. Any other request gets the judge's page and the wait goes on, until the real one
/// or the deadline; another path gets a 404, another method a 405. Each connection gets at most
/// ``maxHeadBytes`` of head within ``connectionTimeout``, and at most ``maxConnections`` are
/// served at once (503 past it), each on a thread of its own, so an idle connection never
/// holds up the browser's.
///
/// ```swift
/// let receiver = try RedirectReceiver(port: 0, path: "/callback", timeout: 300) { query in
///   query["oauth_token"] == token ? .arrived(.page(200, "Authorized.")) : .other(.page(400, "Not this login's."))
/// }
/// let target = await receiver.redirect()  // "/callback?oauth_token=…&oauth_verifier=…", or nil in time
/// ```
package final class RedirectReceiver: Sendable {
  /// The longest request head taken (16 KiB: a redirect's URL carries a code and a state).
  package static let maxHeadBytes = 16_384
  /// How long a connection may take to send its request, and to read the page (10 s).
  package static let connectionTimeout: TimeInterval = 10
  /// How many connections are served at once (16: a browser opens one or two).
  package static let maxConnections = 16

  /// What the judge makes of a request to the redirect path.
  package enum Judgement: Sendable {
    /// The awaited redirect: answer with the page and end the wait.
    case arrived(LoopbackHTTPServer.Response)
    /// Another request: answer with the page and go on waiting.
    case other(LoopbackHTTPServer.Response)
  }

  private let server: LoopbackHTTPServer
  /// The redirect's target once it arrived (`.some(nil)` when none came in time, or the
  /// receiver was closed), and the task waiting for it.
  private let outcome: Locked<(target: String??, waiter: CheckedContinuation<String?, Never>?)>

  /// The port it listens on (the one asked for, or the one the system chose for port 0).
  package var port: UInt16 { server.port }

  /// Listens on `port` of `addresses` (port 0: any free one) for `timeout` seconds, until
  /// `judge` accepts a GET to `path`; `judge` gets the query's fields (the first of each name).
  ///
  /// - Throws: the listener's error when the port cannot be taken on every address.
  package init(
    port: UInt16, addresses: [LoopbackListener.Address] = [.ipv4], path: String, timeout: TimeInterval,
    judge: @escaping @Sendable ([String: String]) -> Judgement
  ) throws(LoopbackListener.Failure) {
    let outcome = Locked<(target: String??, waiter: CheckedContinuation<String?, Never>?)>((nil, nil))
    self.outcome = outcome
    let limits = LoopbackHTTPServer.Limits(
      maxHeadBytes: Self.maxHeadBytes, maxBodyBytes: 0, headTimeout: Self.connectionTimeout, idleTimeout: Self.connectionTimeout,
      sendTimeout: Self.connectionTimeout, maxConnections: Self.maxConnections)
    // The server is known to the handler once it exists: it stops itself after the redirect.
    let stopper = Locked<LoopbackHTTPServer?>(nil)
    server = try LoopbackHTTPServer(port: port, addresses: addresses, limits: limits) { request in
      let (response, target) = Self.answer(request, path: path, judge: judge)
      if let target, Self.settle(outcome, with: target) { stopper.withLock { $0 }?.stop() }
      return response
    }
    let server = self.server
    stopper.withLock { $0 = server }
    let deadline = Date().addingTimeInterval(timeout)
    Thread.detachNewThread {
      let arrived = outcome.withLock(waitingUntil: { $0.target != nil }, deadline: deadline) { _ in true } ?? false
      if !arrived, Self.settle(outcome, with: nil) { server.stop() }
    }
  }

  /// The redirect's request target (`/callback?…`) once it arrives; `nil` when none came in
  /// time, or ``close()`` ended the wait.
  package func redirect() async -> String? {
    await withCheckedContinuation { continuation in
      let arrived = outcome.withLock { state -> String?? in
        if let target = state.target { return .some(target) }
        state.waiter = continuation
        return nil
      }
      if let arrived { continuation.resume(returning: arrived) }
    }
  }

  /// Stops listening; a wait under way ends with `nil`.
  package func close() {
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

  /// The page for `request`, and its target when it is the awaited redirect.
  private static func answer(
    _ request: LoopbackHTTPServer.Request, path: String, judge: ([String: String]) -> Judgement
  ) -> (LoopbackHTTPServer.Response, String?) {
    let requestPath = request.target.prefix { $0 != "?" && $0 != "#" }
    guard requestPath == path else { return (.page(404, "Not the redirect."), nil) }
    guard request.method == "GET" else { return (.page(405, "The redirect is a GET."), nil) }
    let query = request.target.dropFirst(requestPath.count + 1).prefix { $0 != "#" }
    var fields: [String: String] = [:]
    for pair in PercentEncoding.decodeForm(query) where fields[pair.name] == nil { fields[pair.name] = pair.value }
    switch judge(fields) {
    case .arrived(let page): return (page, request.target)
    case .other(let page): return (page, nil)
    }
  }

  /// Whether `a` and `b` are equal, in a time that depends on their lengths only: for a
  /// `state` or a token compared with what a local process sent.
  package static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
    let a = Array(a.utf8), b = Array(b.utf8)
    var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
    for index in 0..<max(a.count, b.count) {
      difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
    }
    return difference == 0 && a.count == b.count
  }
}

extension LoopbackHTTPServer.Response {
  /// A short plain-text page, never cached.
  package static func page(_ status: Int, _ text: String) -> LoopbackHTTPServer.Response {
    .init(status: status, headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")], body: Data((text + "\n").utf8))
  }
}
