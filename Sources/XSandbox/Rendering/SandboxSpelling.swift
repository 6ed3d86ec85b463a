import Foundation
import XAPI

/// Which of X's two spellings of a post's fields the sandbox answers in.
///
/// X's OpenAPI specification 2.167 renamed "tweet" to "post" in its field names
/// (`referenced_posts`, `edit_history_post_ids`, `note_post`, `includes.posts`, `repost_count`
/// ...); X's pages, every earlier version and recorded real answers use the tweet names, which
/// the sandbox writes by default. `tweets sandbox serve --spelling post` answers every v2 JSON
/// body and stream line in the post names, so that the decoders are exercised on both. The
/// names come from XAPI's one table of the pairs, `PostSpelling.postNames`.
///
/// ```swift
/// let body = Data(#"{"data":{"id":"1","edit_history_tweet_ids":["1"]}}"#.utf8)
/// SandboxSpelling.post.respelled(body)  // {"data":{"edit_history_post_ids":["1"],"id":"1"}}
/// ```
package enum SandboxSpelling: String, Sendable, CaseIterable {
  /// The names X's pages document: `referenced_tweets`, `includes.tweets` ... (the default).
  case tweet
  /// The names of X's specification 2.167: `referenced_posts`, `includes.posts` ...
  case post

  /// `body`, a JSON answer or stream line, in this spelling; unchanged for ``tweet``, and for a
  /// body that is not JSON (an empty keep-alive line, an HTML page). A trailing `\r\n` (a
  /// stream line's end) is kept. Keys of a respelled body come out sorted.
  package func respelled(_ body: Data) -> Data {
    guard self == .post, !body.isEmpty else { return body }
    let newline = Data("\r\n".utf8)
    let ends = body.count >= 2 && body.suffix(2) == newline
    let json = ends ? body.dropLast(2) : body
    guard !json.isEmpty, let value = try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed]),
      let written = try? JSONSerialization.data(withJSONObject: Self.renamed(value, parent: nil), options: [.sortedKeys, .withoutEscapingSlashes])
    else { return body }
    return ends ? written + newline : written
  }

  private static func renamed(_ value: Any, parent: String?) -> Any {
    if let array = value as? [Any] { return array.map { renamed($0, parent: parent) } }
    guard let object = value as? [String: Any] else { return value }
    var result: [String: Any] = [:]
    for (key, item) in object {
      let name =
        parent == "includes" && key == PostSpelling.includedPostsKey.tweet ? PostSpelling.includedPostsKey.post : PostSpelling.postNames[key] ?? key
      result[name] = renamed(item, parent: key)
    }
    return result
  }
}
