import Foundation
import Loopback
import NetworkClient
import OAuth1

extension XSandbox {
  /// The answer `produce` gives, unless a scripted action for `rawPath` replaces it, delays it or
  /// breaks its delivery; see ``SandboxAction``. A scripted error status carries the endpoint's
  /// `x-rate-limit-*` headers, as X sends them on error answers too.
  func deliver(
    scriptedFor rawPath: String, family: SandboxFamily, route: SandboxRoute?, identity: String, now: Int64,
    produce: () -> SandboxResponse
  ) async -> (SandboxResponse, SandboxDelivery) {
    guard let action = state.withLock({ $0.control.popAction(for: rawPath, redirectsOnly: false) }) else { return (produce(), .whole) }
    if let delay = action.delay { try? await Task.sleep(nanoseconds: UInt64(max(0, delay) * 1_000_000_000)) }
    if action.resetConnection { return (SandboxResponse(status: 0, contentType: nil, body: Data()), .reset) }
    if action.resetMidBody { return (produce(), .resetMidBody) }
    if action.truncate { return (produce(), .truncated) }
    let contentType = family == .v2 ? SandboxResponse.v2ContentType : SandboxResponse.v1ContentType
    if action.invalidJSON {
      return (scripted("invalid_json", SandboxResponse(status: 200, contentType: contentType, body: Data(#"{"data": ["#.utf8))), .whole)
    }
    if action.html { return (scripted("html", .html(502, XBodies.badGatewayPage)), .whole) }
    guard let status = action.status else { return (produce(), .whole) }

    var headers = action.headers
    if status == 429 {
      if !action.bare {
        let reset = now + Int64(action.resetIn ?? Double(state.withLock { $0.rateWindow }))
        headers += [("x-rate-limit-limit", String(route?.limit ?? 300)), ("x-rate-limit-remaining", "0"), ("x-rate-limit-reset", String(reset))]
      }
    } else if let route, let limit = route.limit {
      headers += state.withLock { $0.takeRateLimit(route.name, limit: limit, identity: identity, path: rawPath, now: now).headers }
    }
    if let body = action.body {
      return (
        scripted("body", SandboxResponse(status: status, contentType: action.contentType ?? contentType, body: Data(body.utf8), headers: headers)),
        .whole
      )
    }
    if status == 429 && rawPath.hasPrefix(Self.streamPath) && !rawPath.hasPrefix(Self.streamPath + "/") {
      return (.v2(429, XBodies.tooManyConnections, headers: headers), .whole)
    }
    if status == 429 {
      return (family == .v2 ? .v2(429, XBodies.tooManyRequests, headers: headers) : .v1(429, XBodies.rateLimitExceeded, headers: headers), .whole)
    }
    guard family == .v2 else { return (.v1(status, XBodies.v1Errors(131, "Internal error"), headers: headers), .whole) }
    let title = LoopbackHTTPServer.reasonPhrase(status)
    return (.v2(status, XBodies.problem(title: title, detail: title, status: status), headers: headers), .whole)
  }
}

/// `response`, marked as what a test's script put in place of the sandbox's answer.
func scripted(_ kind: String, _ response: SandboxResponse) -> SandboxResponse {
  var response = response
  response.scripted = kind
  return response
}

/// The sandbox's clock: the one it was given plus the control API's skew, so a test can move
/// the server's "now" (`oauth_timestamp` checks, rate-limit windows, `Date`) without waiting.
struct SkewedClock: OAuthClock {
  let base: any OAuthClock
  let state: Locked<SandboxState>

  func secondsSince1970() -> Int64 {
    base.secondsSince1970() + state.withLock { $0.control.skew }
  }
}

extension XBodies {
  /// What a proxy in front of X answers when X's servers do not: not JSON at all.
  static let badGatewayPage = """
    <!DOCTYPE html>
    <html><head><title>502 Bad Gateway</title></head>
    <body><h1>Bad Gateway</h1><p>The server returned an invalid or incomplete response.</p></body></html>

    """
}
