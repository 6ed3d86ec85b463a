import Foundation
import XAPI

/// Finds each tweet's own JSON object in a response body, keyed by its id, for the `raw_tweets`
/// table (the items ``AnswerItems`` finds: v2's `data`, v1.1's statuses, a stream line's `data`).
///
/// Each object is written back compact with sorted keys: the values are X's, unchanged.
enum RawObjects {
  static func tweets(in body: Data) -> [String: String] {
    var found: [String: String] = [:]
    for object in AnswerItems.objects(in: body) {
      guard let id = AnswerItems.id(of: object),
        let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
      else { continue }
      found[id] = String(decoding: data, as: UTF8.self)
    }
    return found
  }
}
