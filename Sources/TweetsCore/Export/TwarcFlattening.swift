/// twarc's `ensure_flattened` (twarc 2.14, `twarc/expansions.py`), which twarc-csv runs on each
/// line before it makes rows: an X response page (`data`, `includes`) becomes its posts, each
/// with what `includes` holds for it written inline (`author`, `in_reply_to_user`, the
/// referenced posts in `referenced_tweets`, `attachments.media`, `attachments.poll`, the place in
/// `geo`); a line that already is a post (twarc2's flattened output) stays as it is.
///
/// ```swift
/// let page = try PythonJSON.parse(Data(#"{"data":[{"id":"1","author_id":"9"}],"includes":{"users":[{"id":"9","username":"a"}]}}"#.utf8))
/// TwarcFlattening.posts(in: page)[0]["author"]?["username"]  // "a"
/// ```
enum TwarcFlattening {
  /// The posts of one line: a page's `data` expanded, a post as it is, none for an answer that
  /// holds only `errors` or for anything else.
  static func posts(in line: PythonJSON) -> [PythonJSON] {
    switch line {
    case .object:
      if line["data"] != nil { return flatten(page: line) }
      if line["includes"] == nil && line["errors"] != nil { return [] }
      return line["includes"] == nil ? [line] : []
    case .array(let items):
      guard let first = items.first, first.fields != nil else { return [] }
      if first["data"] != nil { return items.flatMap { $0["data"] != nil ? flatten(page: $0) : [] } }
      return first["includes"] == nil ? items.filter { $0.fields != nil } : []
    default: return []
    }
  }

  /// `flatten(response)`: the posts of `data`, each expanded from the page's `includes`, with
  /// the page's `__twarc` and `matching_rules`.
  static func flatten(page: PythonJSON) -> [PythonJSON] {
    var includes = Includes(page["includes"])
    // The included posts are expanded first, in their order, so that a post of `data` gets them
    // expanded (with their authors): what twarc-csv reads a reply's or retweet's author from.
    for (key, post) in includes.tweetsInOrder { includes.tweets[key] = includes.expand(post) }
    var posts: [PythonJSON]
    switch page["data"] {
    case .array(let items)?: posts = items.map { includes.expand($0) }.filter { $0.fields != nil }
    case .object?: posts = [includes.expand(page["data"]!)]
    default: posts = []
    }
    for key in ["__twarc", "matching_rules"] {
      guard let value = page[key] else { continue }
      posts = posts.map { setting(key, to: value, in: $0) }
    }
    return posts
  }

  /// `{**left, **right}`: `left`'s keys in their order with `right`'s values, then `right`'s new keys.
  static func merged(_ left: PythonJSON, _ right: PythonJSON) -> PythonJSON {
    guard var fields = left.fields else { return right }
    for (key, value) in right.fields ?? [] { fields = setting(key, to: value, in: fields) }
    return .object(fields)
  }

  /// `object[key] = value`: in place when the key is there, appended when not.
  static func setting(_ key: String, to value: PythonJSON, in object: PythonJSON) -> PythonJSON {
    guard let fields = object.fields else { return object }
    return .object(setting(key, to: value, in: fields))
  }

  static func setting(_ key: String, to value: PythonJSON, in fields: [(String, PythonJSON)]) -> [(String, PythonJSON)] {
    var fields = fields
    if let index = fields.firstIndex(where: { $0.0 == key }) { fields[index].1 = value } else { fields.append((key, value)) }
    return fields
  }

  /// A lookup key for an id or username: Python keys a dict by the value, so `"9"` and `9` differ.
  static func key(_ value: PythonJSON) -> String {
    value.text ?? "\u{0}" + value.pythonDumps
  }

  /// A page's `includes`, by id (users also by username, media by `media_key`).
  struct Includes {
    var users: [String: PythonJSON] = [:]
    var media: [String: PythonJSON] = [:]
    var polls: [String: PythonJSON] = [:]
    var places: [String: PythonJSON] = [:]
    var tweets: [String: PythonJSON] = [:]
    /// The included posts by id, each once at its first place with its last value.
    var tweetsInOrder: [(String, PythonJSON)] = []

    init(_ includes: PythonJSON?) {
      func index(_ name: String, by field: String) -> [String: PythonJSON] {
        var found: [String: PythonJSON] = [:]
        for item in includes?[name]?.items ?? [] { if let id = item[field] { found[TwarcFlattening.key(id)] = item } }
        return found
      }
      // By id, then by username: a username that is also an id wins, as in twarc.
      users = index("users", by: "id").merging(index("users", by: "username")) { _, byName in byName }
      media = index("media", by: "media_key")
      polls = index("polls", by: "id")
      places = index("places", by: "id")
      tweets = index("tweets", by: "id")
      var seen = Set<String>()
      for item in includes?["tweets"]?.items ?? [] {
        guard let id = item["id"] else { continue }
        let key = TwarcFlattening.key(id)
        if seen.insert(key).inserted { tweetsInOrder.append((key, tweets[key]!)) }
      }
    }

    private func user(_ id: PythonJSON) -> PythonJSON { users[TwarcFlattening.key(id)] ?? .object([]) }

    /// `expand_payload`: the value with every object in it expanded, inner objects first.
    func expand(_ payload: PythonJSON) -> PythonJSON {
      switch payload {
      case .array(let items): return .array(items.map(expand))
      case .object(let fields): return expand(object: fields.map { ($0.0, expand($0.1)) })
      default: return payload
      }
    }

    private func expand(object: [(String, PythonJSON)]) -> PythonJSON {
      var fields = object
      let value = PythonJSON.object(object)
      if let author = value["author_id"] { fields = TwarcFlattening.setting("author", to: user(author), in: fields) }
      if let replyUser = value["in_reply_to_user_id"] {
        fields = TwarcFlattening.setting("in_reply_to_user", to: user(replyUser), in: fields)
      }
      if let keys = value["media_keys"] {
        let found = (keys.items ?? []).map { media[TwarcFlattening.key($0)] ?? .object([]) }
        fields = TwarcFlattening.setting("media", to: .array(found), in: fields)
      }
      if let ids = value["poll_ids"]?.items, let last = ids.last {
        fields = TwarcFlattening.setting("poll", to: polls[TwarcFlattening.key(last)] ?? .object([]), in: fields)
      }
      if let geo = value["geo"], let place = geo["place_id"] {
        fields = TwarcFlattening.setting("geo", to: TwarcFlattening.merged(geo, places[TwarcFlattening.key(place)] ?? .object([])), in: fields)
      }
      if let mentions = value["mentions"]?.items {
        let expanded = mentions.map { mention in mention["username"].map { TwarcFlattening.merged(mention, user($0)) } ?? mention }
        fields = TwarcFlattening.setting("mentions", to: .array(expanded), in: fields)
      }
      if let references = value["referenced_tweets"]?.items {
        let expanded = references.map { reference in
          reference["id"].map { TwarcFlattening.merged(reference, tweets[TwarcFlattening.key($0)] ?? .object([])) } ?? reference
        }
        fields = TwarcFlattening.setting("referenced_tweets", to: .array(expanded), in: fields)
      }
      if let pinned = value["pinned_tweet_id"] {
        fields = TwarcFlattening.setting("pinned_tweet", to: tweets[TwarcFlattening.key(pinned)] ?? .object([]), in: fields)
      }
      return .object(fields)
    }
  }
}
