import Foundation

/// Finds each tweet's own JSON object in a response body, keyed by its id, for the `raw_tweets`
/// table: v2's `data` (an array, or one object), v1.1's array of statuses or `statuses`, a
/// stream line's `data`.
///
/// Each object is written back compact with sorted keys: the values are X's, unchanged.
enum RawObjects {
  static func tweets(in body: Data) -> [String: String] {
    guard !body.isEmpty, let root = try? JSONSerialization.jsonObject(with: body) else { return [:] }
    let objects: [Any]
    switch root {
    case let array as [Any]: objects = array
    case let object as [String: Any]:
      if let data = object["data"] as? [Any] {
        objects = data
      } else if let data = object["data"] as? [String: Any] {
        objects = [data]
      } else {
        objects = object["statuses"] as? [Any] ?? []
      }
    default: objects = []
    }
    var found: [String: String] = [:]
    for case let object as [String: Any] in objects {
      guard let id = object["id_str"] as? String ?? object["id"] as? String ?? (object["id"] as? NSNumber)?.stringValue,
        let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
      else { continue }
      found[id] = String(decoding: data, as: UTF8.self)
    }
    return found
  }
}
