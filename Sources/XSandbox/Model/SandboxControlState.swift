/// A test's override of an endpoint's remaining requests, applied once to each window it meets.
struct SandboxRateOverride: Sendable {
  let id: Int
  let pathPrefix: String
  let remaining: Int
  let resetIn: Int64?
}

/// What tests steer and read (the control API): scripted faults, clock skew, revoked tokens,
/// rate-limit overrides and the log of requests. Lives in ``SandboxStore``, behind its lock.
struct SandboxControlState: Sendable {
  var scripts: [(pathPrefix: String, actions: [SandboxAction])] = []
  /// Seconds added to the sandbox's clock: what it checks `oauth_timestamp` against.
  var skew: Int64 = 0
  var revoked: Set<String> = []
  var overrides: [SandboxRateOverride] = []
  /// Kept only while the control API is on (a test server), never by `tweets --sandbox`; the
  /// newest ``XSandbox/init(clock:tweetsPerUser:controlAPI:requestLogLimit:oauth2Lifetime:rateWindow:streamTimeScale:streamRules:credits:postCap:)``'s
  /// `requestLogLimit` of them.
  var requests = SandboxRequestLog<SandboxRecordedRequest>(capacity: XSandbox.defaultRequestLogLimit)
  var bearer = 0
  /// Requests that carried a live OAuth 2.0 user access token.
  var oauth2 = 0
  /// The serial number of the next logged request; never reset.
  var nextSerial = 0

  /// The next scripted action for `path`; with `redirectsOnly`, only a redirect (the edge
  /// answers those before authentication).
  mutating func popAction(for path: String, redirectsOnly: Bool) -> SandboxAction? {
    guard let index = scripts.firstIndex(where: { !$0.actions.isEmpty && path.hasPrefix($0.pathPrefix) }) else { return nil }
    if redirectsOnly && scripts[index].actions[0].redirect == nil { return nil }
    return scripts[index].actions.removeFirst()
  }
}
