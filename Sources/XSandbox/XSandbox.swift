import DateFormats
import Foundation
import Loopback
import NetworkClient
import OAuth1
import XAPI

/// An offline imitation of the X (Twitter) API that runs inside the process: a transport that
/// answers requests itself instead of sending them, so `tweets --sandbox` (and tests) can use
/// every command with no network, no developer account and no real keys.
///
/// It is strict where X is strict, so that what works against it works against X: every
/// request's OAuth 1.0a signature is checked with the package's own ``OAuthVerifier``, against
/// the full URL as sent (scheme, host and port included), and a bad one is refused with X's
/// own status and body (codes 32, 89, 135, 215, or v2's `Unauthorized` problem). Endpoints,
/// JSON shapes, parameter ranges, paging tokens, duplicate checks and rate limits follow X.
///
/// The data is generated and deterministic: @sandbox_user (1001, the account every token
/// belongs to), @swift_lang (1002) and @oauth_fan (1003), each with `tweetsPerUser` tweets a
/// minute apart ending a couple of minutes before the clock's "now". Some of them reply to,
/// quote or retweet others, carry links, mentions, hashtags, photos, a video or a GIF, or were
/// edited (see ``SandboxData``); 1300 fan accounts follow and are followed, and list 1500 holds
/// @swift_lang's and @oauth_fan's tweets. Tweets posted through it are kept in memory for the
/// instance's lifetime. Given credits or a post cap, it bills as X's pay-per-use does
/// (``SandboxBilling``, applied to every route from its ``SandboxBillable``); free otherwise.
/// Safe to share between tasks.
///
/// ```swift
/// let sandbox = XSandbox()
/// let client = XClient(
///   authentication: .oauth1(consumer: XSandbox.demoConsumer, token: XSandbox.demoAccessToken),
///   transport: sandbox)
/// let me = try await client.v2.me()                        // @sandbox_user
/// for try await tweet in client.v2.homeTimeline(userID: me.id, limit: 20).tweets() {
///   print(tweet.author?.username ?? "?", tweet.text)
/// }
/// print(sandbox.stats)                                     // (verified: 2, rejected: 0)
/// ```
package final class XSandbox: HTTPTransport, Sendable {
  /// The app credentials the sandbox knows, so it works at once without a developer account.
  ///
  /// ```swift
  /// let login = XLogin(consumer: XSandbox.demoConsumer, transport: XSandbox())
  /// ```
  package static let demoConsumer = Credentials(key: "sandbox-consumer-key", secret: "sandbox-consumer-secret")

  /// A ready access token of @sandbox_user (1001), so user-context calls work without the PIN
  /// flow first.
  ///
  /// ```swift
  /// let auth = XAuthentication.oauth1(consumer: XSandbox.demoConsumer, token: XSandbox.demoAccessToken)
  /// ```
  package static let demoAccessToken = Credentials(key: "1001-sandbox-access-token", secret: "sandbox-access-token-secret")

  /// The app-only bearer token the sandbox accepts, to try app-only reads (search, lookups);
  /// like X, it refuses it for `/2/users/me`, home timelines and writes.
  ///
  /// ```swift
  /// let app = XClient(authentication: .bearer(XSandbox.demoBearerToken), transport: XSandbox())
  /// ```
  package static let demoBearerToken = "sandbox-bearer-token"

  /// How many requests the control API's log keeps by default (`GET /_control/stats`): the
  /// newest 10,000, far more than any test reads back, at a few hundred bytes each; older ones
  /// are dropped and counted (`requests_dropped`).
  package static let defaultRequestLogLimit = 10_000

  /// The path prefix of the control API.
  static let controlPrefix = "/_control/"

  /// Whether `url` is a control API request (`/_control/...`) of a sandbox that serves it: the
  /// one test ``exchange(_:)`` routes by, for ``SandboxServer`` to check the same requests
  /// before they get there.
  package static func isControlRequest(_ url: URL) -> Bool {
    (URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? url.path).hasPrefix(controlPrefix)
  }

  let clock: any OAuthClock
  let state: Locked<SandboxState>
  /// The other origin its media URLs (and presigned URLs) point to once served over HTTP.
  let offsite = SandboxOffsite()
  let nonceStore: InMemoryNonceStore
  let verifierOptions: OAuthVerifier.Options
  let controlAPI: Bool
  /// How long an OAuth 2.0 access token lives, in seconds (X: 7200).
  let oauth2Lifetime: Int64
  /// What the filtered stream's intervals (keep-alive, firehose) are multiplied by: 1 as X's.
  let streamTimeScale: Double
  /// The spelling of its v2 answers: X's tweet names, or the post names of X's specification 2.167.
  let spelling: SandboxSpelling

  /// A sandbox whose "now" is `clock`'s: it dates the generated tweets and the `Date` headers,
  /// checks `oauth_timestamp` (±300 s, as X) and runs the rate-limit windows, so a fixed clock
  /// gives reproducible answers.
  ///
  /// With `controlAPI`, it also serves `/_control/*` (scripted faults, clock skew, revoked
  /// tokens, statistics and the request log, of the newest `requestLogLimit` requests) for
  /// tests; see ``control(_:query:body:)``.
  ///
  /// ```swift
  /// let sandbox = XSandbox(clock: FixedClock(seconds: 1_714_564_800), tweetsPerUser: 25)
  /// ```
  /// `oauth2Lifetime` is how long an OAuth 2.0 access token lives (X: two hours), shorter to
  /// try renewals; `rateWindow` is the rate limits' window (X: 15 minutes), shorter for tests
  /// that make thousands of requests; `streamTimeScale` multiplies the filtered and activity
  /// streams' keep-alive period (20 s) and the pace of their lines, so that tests of a 20-second
  /// stall run in one; `streamRules` are the filtered stream's rules at the start (values and tags), none
  /// by default. With `credits` (US dollars) or a `postCap` (post reads allowed), the sandbox
  /// bills as X does (``SandboxBilling``); without either it is free. `spelling` is the names
  /// its v2 answers use (``SandboxSpelling``): X's tweet names by default.
  package init(
    clock: any OAuthClock = SystemClock(), tweetsPerUser: Int = 60, controlAPI: Bool = false,
    requestLogLimit: Int = XSandbox.defaultRequestLogLimit, oauth2Lifetime: Int64 = 7200, rateWindow: Int64 = 900,
    streamTimeScale: Double = 1, streamRules: [(value: String, tag: String?)] = [], credits: USD? = nil, postCap: Int? = nil,
    spelling: SandboxSpelling = .tweet
  ) {
    self.streamTimeScale = streamTimeScale
    self.spelling = spelling
    let now = clock.secondsSince1970()
    var initial = SandboxState(tweets: SandboxData.tweets(perUser: tweetsPerUser, newest: now - 120), demoToken: Self.demoAccessToken)
    initial.rateWindow = rateWindow
    initial.billing = SandboxBilling(credits: credits, postCap: postCap)
    initial.cycleStart = now
    initial.control.requests = SandboxRequestLog(capacity: requestLogLimit)
    for rule in streamRules {
      initial.stream.nextRule += 1
      initial.stream.rules.append(
        SandboxStreamRule(id: String(1_930_000_000_000_000_000 + initial.stream.nextRule), value: rule.value, tag: rule.tag))
    }
    state = Locked(initial)
    self.clock = SkewedClock(base: clock, state: state)
    self.controlAPI = controlAPI
    self.oauth2Lifetime = oauth2Lifetime
    verifierOptions = OAuthVerifier.Options(allowPlaintextOverHTTP: true, maxClockSkew: 300, clock: self.clock)
    nonceStore = InMemoryNonceStore(window: 600, clock: self.clock)
  }

  /// Answers `request` as X would, without any network: the ``HTTPTransport`` requirement, so
  /// the sandbox plugs in wherever a transport goes. Routes on the URL's path only, so any base
  /// URL works. Throws `CancellationError` for a cancelled task, and `URLError` where a scripted
  /// fault breaks the connection.
  ///
  /// ```swift
  /// let response = try await XSandbox().send(HTTPRequest(method: .get, url: URL(string: "https://api.x.com/2/users/me")!))
  /// response.statusCode  // 401: not signed
  /// ```
  package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    try Task.checkCancellation()
    var request = request
    if request.body == nil, let file = request.bodyFile { request.body = try Data(contentsOf: file) }
    let exchange = await self.exchange(request)
    guard exchange.delivery == .whole else { throw URLError(.networkConnectionLost) }
    // A stream never ends: this transport, which returns whole bodies, closes it at once.
    exchange.response.stream?(RefusingWriter())
    return HTTPResponse(
      statusCode: exchange.response.status, headers: HTTPHeaders(exchange.response.headers),
      body: request.method == .head ? Data() : exchange.response.body, request: request)
  }

  /// An answer, how to deliver it, and what the sandbox concluded of the request's OAuth 1.0a
  /// signature (`verified`, or the reason it was refused; `nil` when none was checked), for an
  /// independent verifier in front of the HTTP server to compare with its own.
  struct Exchange: Sendable {
    var response: SandboxResponse
    var delivery: SandboxDelivery
    var verdict: String?
  }

  /// What ``respond(to:now:trace:)`` learns of a request on the way, for the request log and
  /// the verdict.
  struct Trace: Sendable {
    var auth = "none"
    var verdict: String?
  }

  /// Answers `request`, with the `Date` and `Content-Length` headers, logging it when the
  /// control API is on.
  func exchange(_ request: HTTPRequest) async -> Exchange {
    let now = clock.secondsSince1970()
    let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
    let rawPath = components?.percentEncodedPath ?? request.url.path
    var answer: (response: SandboxResponse, delivery: SandboxDelivery)
    var trace = Trace()
    if controlAPI, rawPath.hasPrefix(Self.controlPrefix) {
      let query = SandboxURL.pairs(components?.percentEncodedQuery ?? "").firstValues
      answer = (control(String(rawPath.dropFirst(Self.controlPrefix.count)), query: query, body: request.body), .whole)
    } else {
      let serial: Int? =
        controlAPI
        ? state.withLock { state in
          let serial = state.control.nextSerial
          state.control.nextSerial += 1
          state.control.requests.append(
            SandboxRecordedRequest(
              serial: serial, method: request.method.rawValue, path: rawPath, query: components?.percentEncodedQuery ?? "",
              authorization: request.headers["Authorization"] != nil))
          return serial
        } : nil
      let streamPart = Self.streamPart(for: rawPath)
      let streamSerial = streamPart.map(streamAttempt)
      answer = await respond(to: request, rawPath: rawPath, now: now, trace: &trace)
      if let check = answer.response.webhookCheck { await finishWebhookCheck(check, answer: &answer, now: now) }
      if let streamSerial, let streamPart { streamAnswered(streamSerial, part: streamPart, answer: &answer) }
      deliverActivity()
      if let serial {
        let status = answer.delivery == .reset ? 0 : answer.response.status
        state.withLock { state in
          state.control.requests.update(serial: serial) { entry in
            entry.status = status
            entry.auth = trace.auth
          }
        }
      }
    }
    if spelling != .tweet, rawPath.hasPrefix("/2/") {
      answer.response.body = spelling.respelled(answer.response.body)
      if let stream = answer.response.stream {
        let spelling = spelling
        answer.response.stream = { writer in stream(RespellingWriter(base: writer, spelling: spelling)) }
      }
    }
    answer.response.headers =
      [("Date", HTTPDate.string(from: Date(epochSeconds: now)))] + answer.response.headers
      + (answer.response.stream == nil ? [("Content-Length", String(answer.response.body.count))] : [])
    return Exchange(response: answer.response, delivery: answer.delivery, verdict: trace.verdict)
  }

  /// The PIN the sandbox's authorize page shows for a request token, or `nil` if the token is
  /// unknown or already exchanged: how a program (or test) plays the user who reads the PIN.
  ///
  /// ```swift
  /// let login = XLogin(consumer: XSandbox.demoConsumer, transport: sandbox)
  /// let pending = try await login.start()
  /// let pin = sandbox.pin(forRequestToken: pending.temporary.credentials.key)!
  /// let account = try await login.finish(pending, pin: pin)
  /// ```
  package func pin(forRequestToken token: String) -> String? {
    state.withLock { $0.requestTokens[token]?.verifier }
  }

  /// How many OAuth 1.0a requests passed every check and how many requests were refused for
  /// their authentication, for tests and `--verbose`.
  ///
  /// ```swift
  /// _ = try? await client.v2.me()
  /// print(sandbox.stats.rejected)  // 1 if the consumer secret was wrong
  /// ```
  package var stats: (verified: Int, rejected: Int) {
    state.withLock { ($0.verified, $0.rejected) }
  }

  /// Why requests were refused, by reason (`signature_invalid`, `timestamp_refused`,
  /// `token_rejected`, `missing_auth`, `bad_verifier`, `app_only_forbidden`, ...), to tell a
  /// user more than X would.
  ///
  /// ```swift
  /// sandbox.rejections  // ["signature_invalid": 1]
  /// ```
  package var rejections: [String: Int] {
    state.withLock { $0.rejections }
  }

}

/// A stream's writer that writes each line in the sandbox's spelling.
private struct RespellingWriter: StreamingBodyWriter {
  let base: any StreamingBodyWriter
  let spelling: SandboxSpelling
  func write(_ data: Data) -> Bool { base.write(spelling.respelled(data)) }
  func reset() { base.reset() }
}

/// A writer for a stream nobody reads: its producer stops at once.
private struct RefusingWriter: StreamingBodyWriter {
  func write(_ data: Data) -> Bool { false }
  func reset() {}
}
