import DateFormats
import Foundation

/// The filtered stream: its rules (read, add, delete) and the stream itself, whose posts
/// ``XSandbox`` writes (`x-api/posts/filtered-stream`).
extension SandboxRoute {
  static let stream: [SandboxRoute] = [
    SandboxRoute(
      method: "GET", pattern: ["2", "tweets", "search", "stream", "rules"], name: "v2_stream_rules", limit: 450, appOnly: true,
      allowed: ["ids", "max_results", "pagination_token"]
    ) { state, ctx in state.v2StreamRules(ctx) },
    SandboxRoute(
      method: "POST", pattern: ["2", "tweets", "search", "stream", "rules"], name: "v2_stream_rules_update", limit: 450, appOnly: true,
      allowed: ["dry_run", "delete_all"]
    ) { $0.v2UpdateStreamRules($1) },
    SandboxRoute(
      method: "GET", pattern: ["2", "tweets", "search", "stream"], name: "v2_stream", limit: 50, appOnly: true,
      allowed: ["backfill_minutes", "start_time", "end_time"] + tweetExtra, billing: .resources(.post)
    ) { state, ctx in state.v2StreamOpen(ctx) },
  ]
}

/// `GET` and `POST /2/tweets/search/stream/rules` and the stream's own checks, as X answers them
/// (`x-api/stream/update-stream-rules.mdx`, `get-stream-rules.mdx`, the `rule-cap`,
/// `invalid-rules` and `duplicate-rules` problems of `x-api/fundamentals/response-codes-and-errors.mdx`).
/// A batch with any invalid rule creates none, and a refused rule is reported in `errors` of a 200
/// (or 201), with `meta.summary` counting what was created and what was not.
extension SandboxState {
  // MARK: - Lock held

  /// `GET /2/tweets/search/stream/rules[?ids=]`: `data` (absent when there is none) and
  /// `meta.sent`, `meta.result_count`.
  func v2StreamRules(_ ctx: RouteContext) -> SandboxResponse {
    // `max_results` 1-1000, as X's specification declares it; the sandbox's few rules fit one page.
    do throws(SandboxRefusal) { _ = try pageSize(ctx.query, range: 1...1000, defaultCount: 1000) } catch { return error.response }
    let wanted = Set(splitList(ctx.query["ids"]))
    let rules = stream.rules.filter { wanted.isEmpty || wanted.contains($0.id) }
    var out: [(String, JSON)] = []
    if !rules.isEmpty { out.append(("data", .array(rules.map(Self.ruleJSON)))) }
    out.append(
      ("meta", .object([("sent", .string(RFC3339.millisecondString(from: Date(epochSeconds: ctx.now)))), ("result_count", .int(rules.count))])))
    return .v2(200, .object(out))
  }

  /// `POST /2/tweets/search/stream/rules[?dry_run=true][&delete_all=true]` with `{"add": [...]}`
  /// or `{"delete": {"ids": [...]}}`.
  mutating func v2UpdateStreamRules(_ ctx: RouteContext) -> SandboxResponse {
    guard mediaType(ctx.contentType) == "application/json" else { return .v2(400, XBodies.jsonRequired) }
    let dryRun = isTruthy(ctx.query["dry_run"])
    if isTruthy(ctx.query["delete_all"]) { return deleteRules(stream.rules.map(\.id), dryRun: dryRun, now: ctx.now) }
    guard let body = ctx.body, let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
      return .v2(400, XBodies.invalidBody("Request body is not valid JSON."))
    }
    switch (object["add"], object["delete"]) {
    case (let add as [Any], nil):
      var rules: [(value: String, tag: String?)] = []
      for item in add {
        guard let rule = item as? [String: Any], let value = rule["value"] as? String else {
          return .v2(400, XBodies.invalidBody("$.add[\(rules.count)].value: is missing but it is required"))
        }
        rules.append((value, rule["tag"] as? String))
      }
      guard !rules.isEmpty else { return .v2(400, XBodies.invalidBody("$.add: there must be a minimum of 1 items in the array")) }
      return addRules(rules, dryRun: dryRun, now: ctx.now)
    case (nil, let delete as [String: Any]):
      guard let ids = delete["ids"] as? [String], !ids.isEmpty else {
        return .v2(400, XBodies.invalidBody("$.delete.ids: there must be a minimum of 1 items in the array"))
      }
      return deleteRules(ids, dryRun: dryRun, now: ctx.now)
    default:
      return .v2(400, XBodies.invalidBody("$: must have exactly one of add or delete"))
    }
  }

  /// `GET /2/tweets/search/stream` before any byte of the stream: X answers 409 when there is
  /// no rule to match. The stream itself is served by ``XSandbox``.
  func v2StreamOpen(_ ctx: RouteContext) -> SandboxResponse {
    guard !stream.rules.isEmpty else { return .v2(409, XBodies.noRules) }
    var response = SandboxResponse.v2(200, .null)
    response.streamQuery = ctx.query
    return response
  }

  private mutating func addRules(_ rules: [(value: String, tag: String?)], dryRun: Bool, now: Int64) -> SandboxResponse {
    var errors: [JSON] = []
    var valid = 0
    var seen = Set(stream.rules.map(\.value))
    for rule in rules {
      if let detail = Self.ruleProblem(rule.value) {
        errors.append(XBodies.invalidRule(rule.value, detail))
      } else if seen.contains(rule.value) {
        errors.append(XBodies.duplicateRule(rule.value, id: stream.rules.first { $0.value == rule.value }?.id))
      } else {
        valid += 1
        seen.insert(rule.value)
      }
    }
    let invalid = rules.count - valid
    var created: [SandboxStreamRule] = []
    if invalid == 0 && stream.rules.count + rules.count > SandboxStreamState.ruleCap {
      errors.append(XBodies.ruleCap)
    } else if invalid == 0 {
      for rule in rules {
        stream.nextRule += 1
        created.append(SandboxStreamRule(id: String(1_930_000_000_000_000_000 + stream.nextRule), value: rule.value, tag: rule.tag))
      }
      if !dryRun { stream.rules += created }
    }
    let summary: [(String, JSON)] = [
      ("created", .int(created.count)), ("not_created", .int(rules.count - created.count)), ("valid", .int(valid)), ("invalid", .int(invalid)),
    ]
    var out: [(String, JSON)] = []
    if !created.isEmpty { out.append(("data", .array(created.map(Self.ruleJSON)))) }
    out.append(("meta", .object([("sent", .string(RFC3339.millisecondString(from: Date(epochSeconds: now)))), ("summary", .object(summary))])))
    if !errors.isEmpty { out.append(("errors", .array(errors))) }
    return .v2(created.isEmpty ? 200 : 201, .object(out))
  }

  private mutating func deleteRules(_ ids: [String], dryRun: Bool, now: Int64) -> SandboxResponse {
    let known = Set(stream.rules.map(\.id))
    let deleted = ids.filter { known.contains($0) }
    let missing = ids.filter { !known.contains($0) }
    if !dryRun { stream.rules.removeAll { deleted.contains($0.id) } }
    var out: [(String, JSON)] = [
      (
        "meta",
        .object([
          ("sent", .string(RFC3339.millisecondString(from: Date(epochSeconds: now)))),
          ("summary", .object([("deleted", .int(deleted.count)), ("not_deleted", .int(missing.count))])),
        ])
      )
    ]
    if !missing.isEmpty { out.append(("errors", .array(missing.map(XBodies.missingRule)))) }
    return .v2(200, .object(out))
  }

  static func ruleJSON(_ rule: SandboxStreamRule) -> JSON {
    .object([("id", .string(rule.id)), ("value", .string(rule.value))] + (rule.tag.map { [("tag", JSON.string($0))] } ?? []))
  }

  /// Why X would refuse `value` as a rule, in X's words; `nil` for a rule it takes.
  static func ruleProblem(_ value: String) -> String? {
    if value.count > SandboxStreamState.ruleLength {
      return
        "Rule length exceeds the max allowed length of \(SandboxStreamState.ruleLength) characters (at position \(SandboxStreamState.ruleLength + 1))"
    }
    var position = 1
    var positive = false
    for term in value.split(separator: " ", omittingEmptySubsequences: false) {
      defer { position += term.count + 1 }
      guard !term.isEmpty else { continue }
      let body = term.hasPrefix("-") ? term.dropFirst() : term[...]
      if !term.hasPrefix("-") { positive = true }
      if let colon = body.firstIndex(of: ":"), !body.hasPrefix("http"), !body.hasPrefix("\"") {
        let name = body[..<colon].lowercased()
        if !SearchOperator.names.contains(name) {
          return
            "Reference to invalid operator '\(name)'. Operator is not available in current product or product packaging. Please refer to complete available operator list at https://developer.twitter.com/en/docs/twitter-api/tweets/filtered-stream/integrate/build-a-rule. (at position \(position))"
        }
      }
    }
    if !positive { return "Rules must contain a non-negation term (at position 1)" }
    return nil
  }
}

extension XBodies {
  /// A rule X cannot parse or run (`invalid-rules`).
  static func invalidRule(_ value: String, _ detail: String) -> JSON {
    .object([
      ("value", .string(value)), ("details", .array([.string(detail)])), ("title", .string("UnprocessableEntity")),
      ("type", .string("https://api.twitter.com/2/problems/invalid-rules")),
    ])
  }

  /// A rule already there (`duplicate-rules`), with the id of the one there.
  static func duplicateRule(_ value: String, id: String?) -> JSON {
    .object(
      [("value", .string(value))] + (id.map { [("id", JSON.string($0))] } ?? []) + [
        ("title", .string("DuplicateRule")), ("type", .string("https://api.twitter.com/2/problems/duplicate-rules")),
      ])
  }

  /// More rules than the access level allows (`rule-cap`).
  static let ruleCap = JSON.object([
    ("title", .string("RulesCapExceeded")),
    ("detail", .string("Rule creation would exceed the max allowed number of rules (\(SandboxStreamState.ruleCap)) for this stream.")),
    ("type", .string("https://api.twitter.com/2/problems/rule-cap")),
  ])

  /// A rule id to delete that is not there.
  static func missingRule(_ id: String) -> JSON {
    .object([
      ("value", .string(id)), ("details", .array([.string("Rule does not exist")])), ("title", .string("Invalid Request")),
      ("type", .string("https://api.twitter.com/2/problems/invalid-request")),
    ])
  }

  /// The stream, connected with no rule (HTTP 409, `x-api/fundamentals/response-codes-and-errors.mdx`).
  static let noRules = problem(
    title: "ConnectionException", detail: "There are no rules on this stream: add one with POST /2/tweets/search/stream/rules.",
    type: "https://api.twitter.com/2/problems/streaming-connection", status: 409)

  /// A second connection, or too many in a window (`x-api/fundamentals/handling-disconnections.mdx`).
  static let tooManyConnections = JSON.object([
    ("title", .string("ConnectionException")), ("detail", .string("This stream is currently at the maximum allowed connection limit.")),
    ("connection_issue", .string("TooManyConnections")), ("type", .string("https://api.twitter.com/2/problems/streaming-connection")),
  ])
}

extension SandboxState {
  // MARK: - Lock held

  /// The next thing connection `serial` does: end (it was terminated or found gone), a fault, or the
  /// firehose's next post of the data (oldest first, round and round) when it matches a rule,
  /// with `matching_rules` as X adds them. When the sandbox bills, each post delivered is
  /// charged once per UTC day of `now` (the sandbox's clock) and counted against the post cap,
  /// as X's post-cap page lists the filtered stream; once billing would refuse a request
  /// (credits spent, the cap reached) the connection ends instead (``SandboxStreamStep/refused(_:)``).
  mutating func streamStep(serial: Int, fields: Fields, now: Int64) -> SandboxStreamStep {
    guard stream.live == serial else { return .superseded }
    if let fault = stream.faults.first, stream.connections[serial].delivered >= fault.after {
      stream.faults.removeFirst()
      if case .stall = fault.kind { stream.connections[serial].stalled = Date().timeIntervalSince1970 }
      return .fault(fault.kind)
    }
    guard !stream.rules.isEmpty, !tweets.isEmpty else { return .idle }
    let tweet = tweets[tweets.count - 1 - stream.position % tweets.count]
    stream.position += 1
    let matched = stream.rules.filter { rule in Self.matcher(rule.value)?(tweet) ?? false }
    guard !matched.isEmpty, case .object(var pairs) = envelope([tweet], fields: fields, single: true) else { return .idle }
    pairs.append(
      (
        "matching_rules",
        .array(matched.map { rule in .object([("id", .string(rule.id))] + (rule.tag.map { [("tag", JSON.string($0))] } ?? [])) })
      ))
    if billing.isMetered {
      if let refusal = billing.refusal(readsPosts: true) { return .refused(refusal) }
      billing.charge(ids: [String(tweet.id)], kind: .post, owned: false, day: Self.billingDay(now))
    }
    stream.connections[serial].delivered += 1
    return .line(JSON.object(pairs).encoded() + Data("\r\n".utf8))
  }
}
