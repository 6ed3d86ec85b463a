internal import CryptoPrimitives
import Foundation
import XAPI

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
  /// - `GET offsite`: the other origin's (the media CDN's, the presigned storage's) `base_url`,
  ///   `files` and `requests` with every header; `POST offsite {"path_prefix", "fault", ...}`
  ///   breaks its answers: see ``SandboxOffsite/control(_:)``.
  /// - `GET billing`: the account (balance, spent, posts per day, charges by kind);
  ///   `POST billing {"credits"?, "add_credits"?, "post_cap"?}` changes it first: see
  ///   ``billingControl(_:)``.
  /// - `GET activity`: the webhooks, events, deliveries and stream connections
  ///   (``SandboxState/activityReport()``); `POST activity {"event_type", ...}` first makes an
  ///   event the sandbox's own endpoints cannot: see ``SandboxState/controlActivity(_:now:)``.
  /// - `POST reset`: clears scripts, skew, statistics, rate-limit counters and revocations (the
  ///   billing account stays, as tweets and tokens do).
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
    case "activity":
      if json["event_type"] != nil {
        let now = clock.secondsSince1970()
        if let problem = state.withLock({ $0.controlActivity(json, now: now) }) { return answer(["error": problem], status: 400) }
        deliverActivity()
      }
      return answer(state.withLock { $0.activityReport() })
    case "offsite":
      var (object, status) = offsite.control(json)
      if json.isEmpty { object["base_url"] = offsite.baseURL?.absoluteString ?? NSNull() }
      return answer(object, status: status)
    case "billing":
      let (object, status) = billingControl(json)
      return answer(object, status: status)
    case "compliance":
      let (object, status) = complianceControl(json)
      return answer(object, status: status)
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

  /// `POST /_control/stream`: `{"disconnect": true}` (a TCP reset of the live connection) or
  /// `{"stall": seconds}` (nothing at all for that long), or `{"stale": true}` (a connection held
  /// with no client, as a crashed collector leaves one), with `"after": n` to strike once the
  /// live connection has delivered n posts (0 by default); a fault waits for a connection when
  /// none is live. `GET`: the connection log (``SandboxStreamConnection``) and the rule count.
  func streamControl(_ json: [String: Any]) -> [String: Any] {
    state.withLock { state in
      let after = json["after"] as? Int ?? 0
      if json["stale"] as? Bool == true { _ = state.stream.holdStale(at: Date().timeIntervalSince1970) }
      if json["disconnect"] as? Bool == true { state.stream.faults.append(SandboxStreamFault(kind: .disconnect, after: after)) }
      if let seconds = json["stall"] as? Double ?? (json["stall"] as? Int).map(Double.init) {
        state.stream.faults.append(SandboxStreamFault(kind: .stall(seconds), after: after))
      }
      return ["connections": state.stream.log, "rules": state.stream.rules.count, "live": state.stream.live.map { $0 as Any } ?? NSNull()]
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

  /// The longest `before` or `after` of a profile change the control API takes: 1,024
  /// characters (X's longest profile field, the bio, takes 160).
  static let maxProfileValue = 1024

  /// `POST /_control/activity`: activity the sandbox has no endpoint for, for its subscribers:
  /// `{"event_type": "follow.follow" | "follow.unfollow", "source_user_id", "target_user_id"}`
  /// (``followHappened(source:target:unfollow:now:)``) or `{"event_type":
  /// "profile.update.<field>", "user_id", "before", "after"}` (``profileUpdated(_:field:before:after:now:)``),
  /// of the sandbox's accounts. Returns why it was refused, or `nil`.
  ///
  /// ```swift
  /// // POST /_control/activity {"event_type": "follow.follow", "source_user_id": "1002", "target_user_id": "1001"}
  /// ```
  mutating func controlActivity(_ json: [String: Any], now: Int64) -> String? {
    // Kept in up to 10,000 events: a profile value is bounded (X's longest, a bio, is 160).
    let type = json["event_type"] as? String ?? ""
    func user(_ name: String) -> SandboxUser? { (json[name] as? String).flatMap { SandboxData.usersByID[$0] } }
    switch type {
    case "follow.follow", "follow.unfollow":
      guard let source = user("source_user_id"), let target = user("target_user_id"), source.id != target.id else {
        return "need source_user_id and target_user_id: two of the sandbox's accounts"
      }
      followHappened(source: source, target: target, unfollow: type == "follow.unfollow", now: now)
    case _ where type.hasPrefix("profile.update.") && XActivitySubscription.eventTypes.contains(type):
      guard let account = user("user_id"), let before = json["before"] as? String, let after = json["after"] as? String,
        before.count <= Self.maxProfileValue, after.count <= Self.maxProfileValue
      else {
        return "need user_id (one of the sandbox's accounts), before and after (strings of at most \(Self.maxProfileValue) characters)"
      }
      profileUpdated(account, field: String(type.dropFirst("profile.update.".count)), before: before, after: after, now: now)
    default:
      return "event_type: follow.follow, follow.unfollow or a profile.update.* type (posts come from POST /2/tweets)"
    }
    return nil
  }

  /// `GET /_control/activity`: what the X Activity API side did, for tests: the webhooks (id,
  /// url, valid), the events built (serial, uuid, type, user, webhook), the webhook deliveries
  /// (``SandboxActivityState/Delivery``) and the activity stream's connection log.
  func activityReport() -> [String: Any] {
    let hooks: [[String: Any]] = webhooks.webhooks.map { webhook in ["id": webhook.id, "url": webhook.url, "valid": webhook.valid] }
    let events: [[String: Any]] = activity.events.map { event in
      [
        "serial": event.serial, "uuid": event.uuid, "type": event.type, "user_id": event.userID,
        "webhook_id": event.webhookID.map { $0 as Any } ?? NSNull(),
      ]
    }
    let deliveries: [[String: Any]] = activity.deliveries.map { delivery in
      [
        "uuid": delivery.uuid, "event_type": delivery.eventType, "webhook_id": delivery.webhookID,
        "status": delivery.status.map { $0 as Any } ?? NSNull(), "outcome": delivery.outcome,
      ]
    }
    return ["webhooks": hooks, "events": events, "deliveries": deliveries, "connections": activityStream.log]
  }
}
