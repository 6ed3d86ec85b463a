import Foundation
import NetworkClient

/// A filtered-stream rule: what X matches posts against (`value`, X's search syntax), its id,
/// and the `tag` each matching post carries in its `matching_rules`.
///
/// ```swift
/// let added = try await app.v2.addStreamRules([StreamRule.New(value: "from:XDevelopers", tag: "devs")])
/// print(added.rules.first?.id ?? "")
/// ```
public struct StreamRule: Sendable, Hashable, Codable {
  /// X's id of the rule (a number, as a string).
  public let id: String
  /// The query, in X's search syntax (at most 1,024 characters on pay-per-use access).
  public let value: String
  /// The label given when the rule was added, repeated in each matching post's `matching_rules`.
  public let tag: String?

  /// A rule as X lists it.
  public init(id: String, value: String, tag: String? = nil) {
    self.id = id
    self.value = value
    self.tag = tag
  }

  /// A rule to add: X gives it its id.
  public struct New: Sendable, Hashable, Encodable {
    /// The query, in X's search syntax.
    public var value: String
    /// A label for the posts it matches; `nil` for none.
    public var tag: String?

    /// A rule to add with ``XClient/V2/addStreamRules(_:dryRun:)``.
    public init(value: String, tag: String? = nil) {
      self.value = value
      self.tag = tag
    }
  }
}

/// X's account of a rule it did not take: `invalid-rules` (it cannot parse or run it, with its
/// reasons in ``details``), `duplicate-rules` (the same value is there, under ``id``) or
/// `rule-cap` (more rules than the access level allows).
///
/// ```swift
/// catch XError.streamRulesRefused(let problems) { problems.forEach { print($0) } }
/// ```
public struct StreamRuleProblem: Sendable, Hashable, Decodable, CustomStringConvertible {
  /// X's name for the problem: `UnprocessableEntity`, `DuplicateRule`, `RulesCapExceeded`.
  public let title: String?
  /// The problem's URI; its end names it (`invalid-rules`, `duplicate-rules`, `rule-cap`).
  public let type: String?
  /// The rule's value, as sent.
  public let value: String?
  /// The existing rule's id, for a duplicate.
  public let id: String?
  /// X's reasons, such as `Reference to invalid operator 'frm'. ... (at position 1)`.
  public let details: [String]?
  /// X's sentence, for the problems that have one (`rule-cap`).
  public let detail: String?

  /// The problem from its parts, for tests and emulators.
  public init(title: String?, type: String?, value: String?, id: String? = nil, details: [String]? = nil, detail: String? = nil) {
    self.title = title
    self.type = type
    self.value = value
    self.id = id
    self.details = details
    self.detail = detail
  }

  /// The rule and X's words: `"frm:x": UnprocessableEntity: Reference to invalid operator ...`.
  public var description: String {
    var words = [title].compactMap { $0 }
    if let details, !details.isEmpty { words.append(details.joined(separator: "; ")) }
    if let detail { words.append(detail) }
    if let id, type?.hasSuffix("duplicate-rules") == true { words.append("the same rule is there as \(id)") }
    let said = words.isEmpty ? "refused" : words.joined(separator: ": ")
    return value.map { "\"\($0)\": \(said)" } ?? said
  }
}

/// What an update of the rules did: the rules X created (none for a delete), and
/// `meta.summary`'s counts.
public struct StreamRulesUpdate: Sendable {
  /// The rules created, with their ids; empty for a delete or a dry run that found problems.
  public let rules: [StreamRule]
  /// `meta.summary`: `created`, `not_created`, `valid`, `invalid` for an add; `deleted`,
  /// `not_deleted` for a delete.
  public let summary: [String: Int]
  /// The response body as X sent it.
  public let body: Data
}

struct RulesEnvelope: Decodable, Sendable {
  struct Meta: Decodable, Sendable {
    let summary: [String: Int]?
    let nextToken: String?

    enum CodingKeys: String, CodingKey {
      case summary
      case nextToken = "next_token"
    }
  }
  let data: [StreamRule]?
  let meta: Meta?
  let errors: [StreamRuleProblem]?
}

extension XClient.V2 {
  /// The filtered stream's rules (`GET /2/tweets/search/stream/rules`), app-only.
  ///
  /// ```swift
  /// for rule in try await app.v2.streamRules() { print(rule.id, rule.value, rule.tag ?? "") }
  /// ```
  public func streamRules() async throws(XError) -> [StreamRule] {
    var rules: [StreamRule] = []
    var token: String?
    repeat {
      var query: [QueryItem] = [("max_results", "1000")]
      if let token { query.append(("pagination_token", token)) }
      let response = try await client.send(Request<RulesEnvelope>(path: XEndpoint.getRules.filled(), query: query))
      rules += response.value.data ?? []
      token = response.value.meta?.nextToken
    } while token != nil
    return rules
  }

  /// Adds rules (`POST /2/tweets/search/stream/rules`, `{"add": [...]}`), or with `dryRun`
  /// only checks them. X takes all or none: when it refuses any (it answers 200 or 201 with an
  /// `errors` list), this throws ``XError/streamRulesRefused(_:)`` with X's words.
  ///
  /// ```swift
  /// let update = try await app.v2.addStreamRules([.init(value: "swift -is:retweet", tag: "swift")])
  /// ```
  public func addStreamRules(_ rules: [StreamRule.New], dryRun: Bool = false) async throws(XError) -> StreamRulesUpdate {
    struct Add: Encodable, Sendable { let add: [StreamRule.New] }
    return try await updateRules(body: .json(Add(add: rules)), dryRun: dryRun)
  }

  /// Deletes rules by id (`{"delete": {"ids": [...]}}`); an id X does not know is refused with
  /// ``XError/streamRulesRefused(_:)``.
  ///
  /// ```swift
  /// try await app.v2.deleteStreamRules(ids: ["1930000000000000001"])
  /// ```
  public func deleteStreamRules(ids: [String], dryRun: Bool = false) async throws(XError) -> StreamRulesUpdate {
    struct Delete: Encodable, Sendable {
      struct IDs: Encodable, Sendable { let ids: [String] }
      let delete: IDs
    }
    return try await updateRules(body: .json(Delete(delete: .init(ids: ids))), dryRun: dryRun)
  }

  private func updateRules(body: RequestBody, dryRun: Bool) async throws(XError) -> StreamRulesUpdate {
    let query: [QueryItem] = dryRun ? [("dry_run", "true")] : []
    let response = try await client.send(
      Request<RulesEnvelope>(method: XEndpoint.updateRules.method, path: XEndpoint.updateRules.filled(), query: query, body: body))
    let envelope = response.value
    if let problems = envelope.errors, !problems.isEmpty { throw .streamRulesRefused(problems) }
    return StreamRulesUpdate(rules: envelope.data ?? [], summary: envelope.meta?.summary ?? [:], body: response.response.body)
  }
}
