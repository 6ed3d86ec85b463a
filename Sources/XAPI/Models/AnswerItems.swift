import Foundation

/// The items of an answer's body as X's JSON objects, for code that needs X's own values rather
/// than the decoded models: v2's `data` (an array, or one object), v1.1's top-level array or
/// search's `statuses`, a stream line's `data`, or v1.1's single object. The archive keeps each
/// item's raw JSON by id; the budget charges per item.
///
/// ```swift
/// let body = Data(#"{"data":[{"id":"1","text":"a"}],"includes":{"users":[{"id":"9"}]}}"#.utf8)
/// AnswerItems.objects(in: body).compactMap(AnswerItems.id(of:))  // ["1"]: includes are not items
/// ```
package enum AnswerItems {
  /// The item objects of `body`; none when it is not JSON or holds only errors.
  package static func objects(in body: Data) -> [[String: Any]] {
    guard !body.isEmpty, let root = try? JSONSerialization.jsonObject(with: body) else { return [] }
    switch root {
    case let array as [Any]: return array.compactMap { $0 as? [String: Any] }
    case let object as [String: Any]:
      if let data = object["data"] as? [Any] { return data.compactMap { $0 as? [String: Any] } }
      if let data = object["data"] as? [String: Any] { return [data] }
      if let statuses = object["statuses"] as? [Any] { return statuses.compactMap { $0 as? [String: Any] } }
      return object["data"] == nil && object["errors"] == nil && id(of: object) != nil ? [object] : []
    default: return []
    }
  }

  /// An item's id: v1.1's `id_str`, v2's `id`, or a numeric `id` written as decimal.
  package static func id(of object: [String: Any]) -> String? {
    object["id_str"] as? String ?? object["id"] as? String ?? (object["id"] as? NSNumber)?.stringValue
  }
}
