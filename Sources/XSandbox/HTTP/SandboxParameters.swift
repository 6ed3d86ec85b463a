import DateFormats
import Foundation

// The request parameters shared by several resource families: the v2 checks, each throwing X's
// 400 (or not-found answer) as a ``SandboxRefusal``, and the forms X reads values in (ids,
// usernames, v1.1's flags, comma-separated lists) and answers lookups with.

/// `max_results` within `range`, `defaultCount` without it.
func pageSize(_ query: [String: String], range: ClosedRange<Int>, defaultCount: Int) throws(SandboxRefusal) -> Int {
  guard let raw = query["max_results"] else { return defaultCount }
  guard let value = Int(raw), range.contains(value) else {
    throw SandboxRefusal.invalid(
      "max_results", raw, "The `max_results` query parameter value [\(raw)] is not between \(range.lowerBound) and \(range.upperBound)")
  }
  return value
}

/// X's 400 for a paging token it did not issue.
func badToken(_ name: String, _ token: String) -> SandboxRefusal {
  .invalid(name, token, "The `\(name)` query parameter value [\(token)] is not valid")
}

/// The `query` of a search or a count, which may not be blank.
func searchText(_ query: [String: String]) throws(SandboxRefusal) -> String {
  guard let text = query["query"], !text.trimmingCharacters(in: .whitespaces).isEmpty else {
    throw SandboxRefusal.invalid("query", query["query"] ?? "", "The `query` query parameter can not be empty")
  }
  return text
}

/// The values of a lookup's list (`ids`, `usernames`): 1 to 100, each matching `pattern` (as
/// `isValid` checks it), repeats (in any case) dropped.
func lookupValues(_ query: [String: String], parameter: String, pattern: String, isValid: (String) -> Bool) throws(SandboxRefusal) -> [String] {
  let raw = query[parameter] ?? ""
  let values = splitList(raw)
  if values.isEmpty { throw SandboxRefusal.invalid(parameter, raw, "The `\(parameter)` query parameter can not be empty") }
  if values.count > 100 {
    throw SandboxRefusal.invalid(
      parameter, raw, "The number of values in the `\(parameter)` query parameter list [\(values.count)] is not between 1 and 100")
  }
  if let bad = values.first(where: { !isValid($0) }) {
    throw SandboxRefusal.invalid(parameter, raw, "The `\(parameter)` query parameter value [\(bad)] does not match \(pattern)")
  }
  var seen: Set<String> = []
  return values.filter { seen.insert($0.lowercased()).inserted }
}

/// `tweets` without the kinds `exclude` names (`replies`, `retweets`).
func excluding(_ query: [String: String], _ tweets: [SandboxTweet]) throws(SandboxRefusal) -> [SandboxTweet] {
  guard let raw = query["exclude"] else { return tweets }
  var dropped: Set<SandboxReference.Kind> = []
  for kind in splitList(raw) {
    switch kind {
    case "replies": dropped.insert(.repliedTo)
    case "retweets": dropped.insert(.retweeted)
    default: throw SandboxRefusal.invalid("exclude", raw, "The `exclude` query parameter value [\(kind)] is not one of [replies,retweets]")
    }
  }
  return tweets.filter { tweet in !tweet.references.contains { dropped.contains($0.kind) } }
}

/// Where a page by position starts (`pagination_token`) and how many it holds (`max_results`).
func positionPage(_ query: [String: String], range: ClosedRange<Int>, defaultCount: Int, token kind: PositionToken) throws(SandboxRefusal) -> (
  offset: Int, count: Int
) {
  let count = try pageSize(query, range: range, defaultCount: defaultCount)
  guard let token = query["pagination_token"] else { return (0, count) }
  guard let offset = kind.decode(token) else { throw badToken("pagination_token", token) }
  return (offset, count)
}

/// `^[0-9]{1,19}$`: what X accepts as an id.
func isID(_ text: String) -> Bool {
  (1...19).contains(text.utf8.count) && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
}

/// `^[A-Za-z0-9_]{1,15}$`: what X accepts as a username.
func isUsername(_ text: String) -> Bool {
  (1...15).contains(text.utf8.count)
    && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F }
}

/// X's 400 for a value that is no id, or `nil` for an id.
func badID(_ value: String, parameter: String = "id") -> SandboxResponse? {
  guard !isID(value) else { return nil }
  return .v2(400, XBodies.invalidRequest(parameter, [value], "The `\(parameter)` query parameter value [\(value)] does not match ^[0-9]{1,19}$"))
}

/// `1`, `true`, `t`, `yes` (any case): how v1.1 reads a flag as set.
func isTruthy(_ value: String?) -> Bool {
  ["1", "true", "t", "yes"].contains((value ?? "").lowercased())
}

/// `0`, `false`, `f`, `no` (any case): how v1.1 reads a flag as cleared.
func isFalsy(_ value: String?) -> Bool {
  ["0", "false", "f", "no"].contains((value ?? "").lowercased())
}

/// A comma-separated parameter's values (`a, b,,c` → `a`, `b`, `c`).
func splitList(_ value: String?) -> [String] {
  (value ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
}

/// Each value's record, in the request's order, and X's not-found problem for each value
/// that names none (`Could not find tweet with ids: [20].`).
func lookup<Record>(
  _ values: [String], resourceType: String, parameter: String, find: (String) -> Record?
) -> (found: [Record], errors: [JSON]) {
  var found: [Record] = [], errors: [JSON] = []
  for value in values {
    if let record = find(value) {
      found.append(record)
    } else {
      errors.append(
        XBodies.notFound(
          value, resourceType: resourceType, parameter: parameter, detail: "Could not find \(resourceType) with \(parameter): [\(value)]."))
    }
  }
  return (found, errors)
}
