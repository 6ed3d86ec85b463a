/// One CSV row of a flattened post, made as twarc-csv 0.7.2's `DataFrameConverter` makes it with
/// its default options (`_format_tweet`, then pandas' `json_normalize`): the replied-to,
/// retweeted and quoted authors named, a retweet given its original's text, entities,
/// attachments, annotations and counts (`--merge-retweets`), entities reduced to lists of
/// `#tag`, `$tag`, `@name` and expanded URLs (`--process-entities`), and every object flattened
/// into dotted columns.
///
/// Fields outside ``TwarcColumns/all`` are left out; twarc-csv instead refuses the whole batch
/// they are in ("Unexpected items in data"), which is its behaviour, not a table.
struct TwarcRow {
  /// A cell before pandas prints it.
  enum Cell: Equatable {
    /// Python's `None`: a field X sent as `null`, or a retweet's merged field that neither post had.
    case none
    case string(String)
    /// An integer's decimal digits.
    case integer(String)
    case double(Double)
    case bool(Bool)
    /// A list, already written as `json.dumps` writes it.
    case list(String)
  }

  /// The post's id (its dotted `id` column), by which rows are deduplicated; `nil` when it has none.
  let id: PythonJSON?
  /// The cells by column name; a column that is absent is empty (pandas' `NaN`).
  let cells: [String: Cell]

  /// The row of `post`, a flattened post (``TwarcFlattening``).
  init(post: PythonJSON) {
    let formatted = Self.format(post)
    id = formatted["id"]
    var cells: [String: Cell] = [:]
    Self.normalize(formatted, prefix: "", into: &cells)
    self.cells = cells
  }

  /// `json_normalize`: each object's fields become dotted columns; an empty object none.
  private static func normalize(_ value: PythonJSON, prefix: String, into cells: inout [String: Cell]) {
    guard case .object(let fields) = value else {
      if TwarcColumns.known.contains(prefix) { cells[prefix] = cell(value) }
      return
    }
    for (key, field) in fields { normalize(field, prefix: prefix.isEmpty ? key : prefix + "." + key, into: &cells) }
  }

  private static func cell(_ value: PythonJSON) -> Cell {
    switch value {
    case .null: .none
    case .string(let text): .string(text)
    case .integer(let digits): .integer(digits)
    case .double(let number): .double(number)
    case .bool(let flag): .bool(flag)
    case .array, .object: .list(value.pythonDumps)
    }
  }

  /// `_format_tweet` with twarc-csv's defaults.
  static func format(_ post: PythonJSON) -> PythonJSON {
    guard var tweet = post.fields else { return post }
    tweet.removeAll { $0.0 == "pinned_tweet" || $0.0 == "in_reply_to_user" }
    func get(_ key: String) -> PythonJSON? { tweet.first { $0.0 == key }?.1 }
    func set(_ key: String, _ value: PythonJSON) { tweet = TwarcFlattening.setting(key, to: value, in: tweet) }
    func pop(_ key: String) -> PythonJSON? {
      guard let index = tweet.firstIndex(where: { $0.0 == key }) else { return nil }
      return tweet.remove(at: index).1
    }

    if let references = get("referenced_tweets") {
      let all = references.items ?? []
      func last(_ type: String) -> PythonJSON? { all.last { $0["type"]?.text == type } }
      if let reply = last("replied_to"), let username = reply["author"]?["username"] { set("in_reply_to_username", username) }
      let retweeted = last("retweeted")
      // The retweeted author's name needs its id too; the quoted author's does not (as in twarc-csv).
      for (reference, prefix) in [(retweeted, "retweeted"), (last("quoted"), "quoted")] {
        guard let reference else { continue }
        let authorID = reference["author_id"]
        if let authorID { set("\(prefix)_user_id", authorID) }
        if authorID != nil || prefix == "quoted", let username = reference["author"]?["username"] { set("\(prefix)_username", username) }
      }
      // A retweet takes its original's text, entities, attachments, annotations and counts; each
      // is the retweet's own when the original lacks it, and None when neither has it.
      if let retweeted, retweeted.isTruthy {
        for key in ["text", "entities", "attachments", "context_annotations", "public_metrics"] {
          let own = pop(key)
          set(key, retweeted[key] ?? own ?? .null)
        }
      }
      // Only the ids stay, by type; of two references of one type the first wins (ChainMap).
      var byType: [(String, PythonJSON)] = []
      for reference in all {
        guard let type = reference["type"]?.text, let id = reference["id"], !byType.contains(where: { $0.0 == type }) else { continue }
        byType.append((type, .object([("id", id)])))
      }
      set("referenced_tweets", .object(byType))
    } else {
      set("referenced_tweets", .object([]))
    }

    if let entities = get("entities"), entities.isTruthy { set("entities", processed(entities)) }
    if var author = get("author")?.fields, let entities = author.first(where: { $0.0 == "entities" })?.1, entities.isTruthy {
      var authorEntities = entities
      if let url = entities["url"] {
        let urls = (url["urls"]?.items ?? []).map { $0["expanded_url"] ?? $0["url"] ?? .null }
        authorEntities = TwarcFlattening.setting("url", to: TwarcFlattening.setting("urls", to: .array(urls), in: url), in: authorEntities)
        if let profile = urls.last { author = TwarcFlattening.setting("url", to: profile, in: author) }
      }
      if let description = entities["description"] {
        authorEntities = TwarcFlattening.setting("description", to: processed(description), in: authorEntities)
      }
      author = TwarcFlattening.setting("entities", to: authorEntities, in: author)
      set("author", .object(author))
    }
    // Older data: an impression count X did not send is missing, not zero.
    if let metrics = get("public_metrics"), metrics.fields != nil, metrics["impression_count"] == nil {
      set("public_metrics", TwarcFlattening.setting("impression_count", to: .null, in: metrics))
    }
    _ = pop("type")
    for key in ["attachments", "entities", "public_metrics", "pinned_tweet"] {
      if let value = get(key), !value.isTruthy { _ = pop(key) }
    }
    return .object(tweet)
  }

  /// `_process_entities`: `$cashtag`, `#hashtag`, `@username`, and each URL's expanded form
  /// (a media link's `display_url`).
  private static func processed(_ entities: PythonJSON) -> PythonJSON {
    var result = entities
    func map(_ key: String, _ transform: (PythonJSON) -> PythonJSON) {
      guard let items = entities[key]?.items else { return }
      result = TwarcFlattening.setting(key, to: .array(items.map(transform)), in: result)
    }
    map("cashtags") { .string("$" + ($0["tag"]?.text ?? "")) }
    map("hashtags") { .string("#" + ($0["tag"]?.text ?? "")) }
    map("mentions") { .string("@" + ($0["username"]?.text ?? "")) }
    map("urls") { url in
      (url["media_key"] != nil ? url["display_url"] : nil) ?? url["expanded_url"] ?? url["url"] ?? .null
    }
    return result
  }
}
