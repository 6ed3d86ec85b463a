import DateFormats
import Foundation
import XArchive

/// The archive's posts as twarc's flattened posts (``TwarcFlattening``), so that `tweets export
/// --db` writes the rows twarc-csv writes from the same posts: X's JSON of each post with its
/// author (`author`), its media (`attachments.media`) and the posts it references (with their
/// authors), each from the archive's rows.
///
/// The archive keeps of an author and of media only its columns (`users`, `media`): fields it
/// does not keep (an author's entities, URL, profile image, pinned post; a photo's size; polls,
/// places) are empty in the table; and a referenced post is inlined only when the archive holds
/// it itself.
enum ArchiveFlattening {
  /// `post` flattened from `archive`'s rows; `nil` when its JSON is not an object.
  static func post(_ post: TweetArchive.KeptPost, in archive: TweetArchive) throws(ArchiveError) -> PythonJSON? {
    guard var flattened = try expanded(post, in: archive) else { return nil }
    if let references = flattened["referenced_tweets"]?.items {
      var inlined: [PythonJSON] = []
      for reference in references {
        guard let id = reference["id"]?.text, let kept = try archive.post(id: id), let referenced = try expanded(kept, in: archive) else {
          inlined.append(reference)
          continue
        }
        inlined.append(TwarcFlattening.merged(reference, referenced))
      }
      flattened = TwarcFlattening.setting("referenced_tweets", to: .array(inlined), in: flattened)
    }
    return flattened
  }

  /// The post's JSON with its author and media, as `flatten` adds them from `includes`.
  private static func expanded(_ post: TweetArchive.KeptPost, in archive: TweetArchive) throws(ArchiveError) -> PythonJSON? {
    guard var json = try? PythonJSON.parse(Data(post.json.utf8)), json.fields != nil else { return nil }
    if json["author_id"] != nil {
      json = TwarcFlattening.setting("author", to: post.author.map(user) ?? .object([]), in: json)
    }
    if let attachments = json["attachments"], let keys = attachments["media_keys"]?.items {
      var media: [PythonJSON] = []
      for key in keys {
        guard let text = key.text, let kept = try archive.media(key: text) else {
          media.append(.object([]))
          continue
        }
        var fields: [(String, PythonJSON)] = [("media_key", .string(kept.key)), ("type", .string(kept.type))]
        if let url = kept.url { fields.append(("url", .string(url))) }
        if let alt = kept.altText { fields.append(("alt_text", .string(alt))) }
        media.append(.object(fields))
      }
      json = TwarcFlattening.setting("attachments", to: TwarcFlattening.setting("media", to: .array(media), in: attachments), in: json)
    }
    return json
  }

  /// A user object in X's field order, with what the row holds.
  private static func user(_ row: TweetArchive.KeptUser) -> PythonJSON {
    var fields: [(String, PythonJSON)] = [("id", .string(row.id))]
    func add(_ key: String, _ value: PythonJSON?) { if let value { fields.append((key, value)) } }
    add("name", row.name.map(PythonJSON.string))
    add("username", row.username.map(PythonJSON.string))
    // X writes milliseconds (`.000Z`); the archive keeps whole seconds.
    add("created_at", row.createdAt.map { text in .string(RFC3339.date(from: text).map(RFC3339.millisecondString(from:)) ?? text) })
    add("description", row.description.map(PythonJSON.string))
    add("location", row.location.map(PythonJSON.string))
    add("protected", row.protected.map(PythonJSON.bool))
    add("verified", row.verified.map(PythonJSON.bool))
    var metrics: [(String, PythonJSON)] = []
    for (key, value) in [
      ("followers_count", row.followers), ("following_count", row.following), ("tweet_count", row.tweets), ("listed_count", row.listed),
    ] {
      if let value { metrics.append((key, .integer(String(value)))) }
    }
    if !metrics.isEmpty { fields.append(("public_metrics", .object(metrics))) }
    return .object(fields)
  }
}
