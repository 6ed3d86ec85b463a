import DateFormats
import Foundation

/// One line of a compliance job's results: an id and what a stored copy of it must do.
///
/// X has written the results two ways, and both are read:
/// - today's (`integrate.mdx`): `{"id": "…", "action": "delete"|"rehydrate"|"scrub_geo",
///   "reason": …, "created_at": …, "redacted_at": …, "deleted_at": …}`;
/// - the older storage flow's: `{"id": "…", "action": "delete", "reason": "deleted", …}`, or
///   `reason` alone.
///
/// ``event`` is the reason when there is one (`deleted`, `protected`, `suspended`,
/// `deactivated`, `bounced`, `scrub_geo`), else the action; ``action`` follows from both: a
/// `scrub_geo` reason removes location data only, though X's quickstart table pairs it with a
/// `delete` action.
///
/// ```swift
/// let result = try ComplianceResult(line: #"{"id":"20","action":"delete","reason":"deleted"}"#)
/// result.action  // .delete
/// ```
public struct ComplianceResult: Sendable, Hashable {
  /// What to do with the stored copy.
  public enum Action: String, Sendable, Hashable {
    /// Remove it: deleted, protected, suspended, deactivated or bounced.
    case delete
    /// Fetch it again: it was edited.
    case rehydrate
    /// Remove its location data.
    case scrubGeo = "scrub_geo"
  }

  /// The id, as X wrote it (an id line X could not read comes back as it was uploaded).
  public let id: String
  /// What to do; `nil` for an ``error`` line.
  public let action: Action?
  /// X's word for what happened: the reason, or the action when there is none.
  public let event: String
  /// When the post or account was created, if X says.
  public let createdAt: Date?
  /// When it was removed (`redacted_at`, or the older `deleted_at`), if X says.
  public let redactedAt: Date?
  /// X's error for an id it could not read (`invalid_id`).
  public let error: String?

  /// A result from its parts, for tests and emulators.
  public init(id: String, action: Action?, event: String, createdAt: Date? = nil, redactedAt: Date? = nil, error: String? = nil) {
    self.id = id
    self.action = action
    self.event = event
    self.createdAt = createdAt
    self.redactedAt = redactedAt
    self.error = error
  }

  /// The longest line read: a result is about 200 bytes, so a longer line is not X's.
  public static let maxLineBytes = 4096

  /// Why a line is not a result.
  public struct Malformed: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line's number in the results, from 1.
    public var line: Int
    /// What is wrong with it.
    public let reason: String

    public var description: String { "line \(line) of the compliance results is not a result: \(reason)" }
  }

  /// Reads one line of results (`line` numbers the error).
  public init(line text: some StringProtocol, number: Int = 1) throws(Malformed) {
    guard text.utf8.count <= Self.maxLineBytes else {
      throw Malformed(line: number, reason: "longer than \(Self.maxLineBytes) bytes (\(text.utf8.count))")
    }
    guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
      throw Malformed(line: number, reason: "not a JSON object")
    }
    let id: String
    switch object["id"] {
    case let text as String: id = text
    case let number as Int: id = String(number)
    default: throw Malformed(line: number, reason: "no \"id\"")
    }
    func time(_ name: String) -> Date? { (object[name] as? String).flatMap(RFC3339.date(from:)) }
    let reason = object["reason"] as? String
    let actionWord = object["action"] as? String
    self.id = id
    createdAt = time("created_at")
    redactedAt = time("redacted_at") ?? time("deleted_at")
    if let error = object["error"] as? String {
      self.error = error
      action = nil
      event = "error"
      return
    }
    error = nil
    guard let word = reason ?? actionWord else { throw Malformed(line: number, reason: "neither \"action\" nor \"reason\"") }
    event = word
    if reason == "scrub_geo" || actionWord == "scrub_geo" {
      action = .scrubGeo
    } else if actionWord == "rehydrate" || (actionWord == nil && reason == "edited") {
      action = .rehydrate
    } else if actionWord == nil || actionWord == "delete" {
      action = .delete
    } else {
      throw Malformed(line: number, reason: "an action this release does not know: \(actionWord ?? "")")
    }
  }

  /// The result as one JSON line in today's form (keys sorted), for `tweets compliance --ids`.
  public var jsonLine: String {
    struct Line: Encodable {
      let id: String
      let action: String?
      let reason: String?
      let error: String?
      let createdAt: String?
      let redactedAt: String?
    }
    let line = Line(
      id: id, action: error == nil ? action?.rawValue : nil, reason: error == nil ? event : nil, error: error,
      createdAt: createdAt.map(RFC3339.millisecondString(from:)), redactedAt: redactedAt.map(RFC3339.millisecondString(from:)))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.keyEncodingStrategy = .convertToSnakeCase
    return (try? encoder.encode(line)).map { String(decoding: $0, as: UTF8.self) } ?? "{\"id\":\"\(id)\"}"
  }
}
