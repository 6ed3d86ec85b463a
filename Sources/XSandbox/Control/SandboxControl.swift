internal import CryptoPrimitives
import Foundation

/// One request as the sandbox saw it, for tests that count attempts and check what was sent.
struct SandboxRecordedRequest: Sendable {
  /// Its number in the sandbox's lifetime: the log may be cleared while it is answered.
  let serial: Int
  let method: String
  /// The path as sent, before any `/2/` or `/1.1/` prefix is looked for.
  let path: String
  let query: String
  /// Whether an `Authorization` header arrived at all.
  let authorization: Bool
  /// What the request tried: `oauth1`, `bearer` or `none`.
  var auth = "none"
  /// The status answered; 0 for a reset connection, `nil` while unanswered.
  var status: Int?
}

/// The control API's log of requests: the newest `capacity` of them, in order, and how many
/// older ones were dropped to keep it so (a test server that runs for days, or a client that
/// floods it, cannot grow it without bound). Appending and finding an entry by its serial
/// number cost the same whatever the size.
struct SandboxRequestLog: Sendable {
  /// How many entries it keeps at most.
  let capacity: Int
  /// The entries; once full, a ring whose oldest entry is at `start`.
  private var storage: [SandboxRecordedRequest] = []
  private var start = 0
  /// How many entries were dropped, oldest first, since the log was made.
  private(set) var dropped = 0

  init(capacity: Int) {
    self.capacity = max(0, capacity)
  }

  /// The entries, oldest first.
  var entries: [SandboxRecordedRequest] { Array(storage[start...] + storage[..<start]) }

  /// Adds `request`, dropping the oldest entry when full.
  mutating func append(_ request: SandboxRecordedRequest) {
    if storage.count < capacity {
      storage.append(request)
    } else if capacity > 0 {
      storage[start] = request
      start = (start + 1) % capacity
      dropped += 1
    } else {
      dropped += 1
    }
  }

  /// Changes the entry numbered `serial`, if it is still kept. Serial numbers in the log are
  /// consecutive (each request takes the next one as it is appended), so its place is known.
  mutating func update(serial: Int, _ change: (inout SandboxRecordedRequest) -> Void) {
    guard !storage.isEmpty else { return }
    let offset = serial - storage[start].serial
    guard offset >= 0, offset < storage.count else { return }
    let index = (start + offset) % storage.count
    guard storage[index].serial == serial else { return }
    change(&storage[index])
  }
}

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
  /// newest ``XSandbox/init(clock:tweetsPerUser:controlAPI:requestLogLimit:oauth2Lifetime:rateWindow:streamTimeScale:streamRules:)``'s
  /// `requestLogLimit` of them.
  var requests = SandboxRequestLog(capacity: XSandbox.defaultRequestLogLimit)
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

extension XSandbox {
  /// `/_control/*`, served when the sandbox was made with `controlAPI` (tests, `tweets sandbox
  /// serve --control`); JSON in and out. In process it needs nothing more; over HTTP,
  /// ``SandboxServer`` requires its token, a loopback Host and JSON first:
  ///
  /// - `POST script {"path_prefix", "responses": [action, ...]}`: see ``SandboxAction``.
  /// - `POST clock {"skew": seconds}`; `POST revoke {"token"}`;
  ///   `POST rate_limit {"path_prefix", "remaining", "reset_in"?}`.
  /// - `GET stats`: `verified`, `rejected`, `reasons`, `bearer`, and `requests` (method, path,
  ///   query, auth, status, authorization: the newest `requestLogLimit`), `requests_dropped`
  ///   (the older ones no longer kept).
  /// - `GET pin?oauth_token=T`; `GET tweets?user_id=U` (ids, newest first).
  /// - `GET secret?consumer=K` or `?token=T` (`&kind=request` for a request token): what an
  ///   independent verifier in front of the sandbox needs to check a signature.
  /// - `POST media {"pending_polls"?, "fail_processing"?}`: how videos and GIFs are processed;
  ///   `GET media?id=ID`: what an upload received (bytes, SHA-256, segments, state, alt text).
  /// - `POST reset`: clears scripts, skew, statistics, rate-limit counters and revocations.
  func control(_ name: String, query: [String: String], body: Data?) -> SandboxResponse {
    func answer(_ object: Any, status: Int = 200) -> SandboxResponse {
      let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
      return SandboxResponse(status: status, contentType: "application/json", body: data)
    }
    let json: [String: Any]
    if let body, !body.isEmpty {
      guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
        return answer(["error": "the body is not a JSON object"], status: 400)
      }
      json = object
    } else {
      json = [:]
    }
    switch name {
    case "stats":
      return answer(state.withLock { $0.statistics() })
    case "reset":
      state.withLock { $0.resetControl() }
      return answer(["ok": true])
    case "script":
      guard let prefix = json["path_prefix"] as? String, let responses = json["responses"] as? [[String: Any]] else {
        return answer(["error": "need path_prefix and responses (a list of objects)"], status: 400)
      }
      do {
        let actions = try responses.map { object throws(SandboxAction.Invalid) in try SandboxAction(json: object) }
        state.withLock { state in
          if let index = state.control.scripts.firstIndex(where: { $0.pathPrefix == prefix }) {
            state.control.scripts[index].actions += actions
          } else {
            state.control.scripts.append((prefix, actions))
          }
        }
        return answer(["ok": true, "queued": actions.count])
      } catch {
        return answer(["error": error.description], status: 400)
      }
    case "clock":
      let skew = Int64((json["skew"] as? Double ?? (json["skew"] as? Int).map(Double.init) ?? 0).rounded())
      state.withLock { $0.control.skew = skew }
      return answer(["ok": true, "skew": skew])
    case "revoke":
      let token = json["token"] as? String ?? ""
      state.withLock { _ = $0.control.revoked.insert(token) }
      return answer(["ok": true])
    case "rate_limit":
      guard let prefix = json["path_prefix"] as? String, let remaining = json["remaining"] as? Int else {
        return answer(["error": "need path_prefix and remaining"], status: 400)
      }
      let resetIn = (json["reset_in"] as? Int).map(Int64.init) ?? (json["reset_in"] as? Double).map { Int64($0) }
      state.withLock { state in
        let id = state.control.overrides.count + 1
        state.control.overrides.append(SandboxRateOverride(id: id, pathPrefix: prefix, remaining: remaining, resetIn: resetIn))
      }
      return answer(["ok": true])
    case "media":
      if let id = query["id"] {
        guard let upload = state.withLock({ $0.media.uploads[id] }) else { return answer(["error": "unknown media id"], status: 404) }
        let bytes = upload.segments.keys.sorted().reduce(into: Data()) { $0.append(upload.segments[$1]!) }
        let digest = (try? DigestAlgorithm.sha256.digest(of: Array(bytes))).map { Data($0).base64EncodedString() } ?? ""
        return answer([
          "bytes": bytes.count, "sha256_base64": digest, "segments": upload.segments.count, "state": upload.state,
          "alt_text": upload.altText.map { $0 as Any } ?? NSNull(),
        ])
      }
      state.withLock { state in
        if let polls = json["pending_polls"] as? Int { state.media.pendingPolls = max(1, polls) }
        if let fail = json["fail_processing"] as? Bool { state.media.failProcessing = fail }
      }
      return answer(["ok": true])
    case "stream":
      return answer(streamControl(json))
    case "pin":
      guard let pin = pin(forRequestToken: query["oauth_token"] ?? "") else { return answer(["error": "unknown oauth_token"], status: 404) }
      return answer(["pin": pin])
    case "tweets":
      let userID = query["user_id"]
      let ids = state.withLock { $0.tweets.filter { userID == nil || $0.authorID == userID }.map { String($0.id) } }
      return answer(["ids": ids])
    case "secret":
      if let key = query["consumer"] {
        guard key == Self.demoConsumer.key else { return answer(["error": "unknown consumer"], status: 404) }
        return answer(["secret": Self.demoConsumer.secret])
      }
      let token = query["token"] ?? ""
      let secret = state.withLock { state in
        query["kind"] == "request" ? state.requestTokens[token]?.secret : state.accessToken(token)?.secret
      }
      guard let secret else { return answer(["error": "unknown token"], status: 404) }
      return answer(["secret": secret])
    default:
      return answer(["error": "unknown control endpoint \(name)"], status: 404)
    }
  }
}

extension SandboxState {
  // MARK: - Lock held

  /// The control API's `stats`.
  func statistics() -> [String: Any] {
    [
      "verified": verified, "rejected": rejected, "reasons": rejections, "bearer": control.bearer, "oauth2": control.oauth2,
      "oauth2_grants": oauth2.counts,
      "requests_dropped": control.requests.dropped,
      "requests": control.requests.entries.map { request -> [String: Any] in
        [
          "method": request.method, "path": request.path, "query": request.query, "auth": request.auth,
          "authorization": request.authorization, "status": request.status.map { $0 as Any } ?? NSNull(),
        ]
      },
    ]
  }

  /// Back to a fresh server's steering and statistics; tweets and issued tokens stay.
  mutating func resetControl() {
    control = SandboxControlState(requests: SandboxRequestLog(capacity: control.requests.capacity), nextSerial: control.nextSerial)
    media.pendingPolls = 1
    media.failProcessing = false
    counters = [:]
    verified = 0
    rejected = 0
    rejections = [:]
  }
}
