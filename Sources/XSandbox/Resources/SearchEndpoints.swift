import Foundation

/// An operator of X's search syntax that the sandbox knows: `from:`, `to:`,
/// `conversation_id:`, `lang:`, `is:` and `has:`.
struct SearchOperator {
  static let names: Set<String> = ["from", "to", "conversation_id", "lang", "is", "has"]

  /// The operator's name, lowercased.
  let name: String
  let value: String

  /// The operator a search term spells (`from:oauth_fan`), or `nil` for a word.
  init?(_ term: String) {
    guard let colon = term.firstIndex(of: ":") else { return nil }
    let name = term[..<colon].lowercased()
    let value = String(term[term.index(after: colon)...])
    guard Self.names.contains(name), !value.isEmpty else { return nil }
    self.name = name
    self.value = value
  }

  /// What a tweet must be to match; `nil` when `from:` or `to:` names nobody.
  func test() -> (@Sendable (SandboxTweet) -> Bool)? {
    switch name {
    case "from", "to":
      guard let user = SandboxData.user(named: value.hasPrefix("@") ? String(value.dropFirst()) : value) else { return nil }
      let id = user.id
      if name == "from" { return { $0.authorID == id } }
      return { $0.inReplyToUserID == id }
    case "conversation_id":
      // The conversation's replies: the tweet that started it is not one of them.
      guard let root = UInt64(value) else { return { _ in false } }
      return { $0.conversationID == root && $0.id != root }
    case "lang":
      let lang = value.lowercased()
      return { $0.lang == lang }
    case "is":
      let kinds: [String: SandboxReference.Kind] = ["retweet": .retweeted, "reply": .repliedTo, "quote": .quoted]
      guard let kind = kinds[value.lowercased()] else { return { _ in false } }
      return { $0.reference(kind) != nil }
    default:
      return Self.has(value.lowercased())
    }
  }

  /// `has:media`, `has:links`, `has:mentions`, `has:hashtags`.
  private static func has(_ what: String) -> @Sendable (SandboxTweet) -> Bool {
    switch what {
    case "media": return { !$0.media.isEmpty }
    case "links": return { SandboxText.entities(of: $0).contains(where: \.isLink) }
    case "mentions": return { SandboxText.entities(of: $0).contains { $0.mentionedUserID != nil } }
    case "hashtags": return { SandboxText.entities(of: $0).contains(where: \.isHashtag) }
    default: return { _ in false }
    }
  }
}

extension SandboxState {
  /// The tweets a search query selects, newest first: each word (case-insensitive, anywhere in
  /// the text) and each ``SearchOperator``, a leading `-` negating either. `nil` when `from:` or
  /// `to:` names nobody (no tweet can match).
  func search(_ text: String) -> [SandboxTweet]? {
    guard let matches = Self.matcher(text) else { return nil }
    return tweets.filter(matches)
  }

  /// The test a query (a search, or a filtered stream's rule) makes of a tweet: every word and
  /// operator, as ``search(_:)`` applies it; `nil` when `from:` or `to:` names nobody.
  static func matcher(_ text: String) -> (@Sendable (SandboxTweet) -> Bool)? {
    var tests: [@Sendable (SandboxTweet) -> Bool] = []
    for term in text.split(whereSeparator: \.isWhitespace) {
      let negated = term.count > 1 && term.hasPrefix("-")
      let body = String(negated ? term.dropFirst() : term)
      let test: @Sendable (SandboxTweet) -> Bool
      if let condition = SearchOperator(body) {
        guard let made = condition.test() else {
          if negated { continue }  // "-from:nobody" leaves every tweet in
          return nil
        }
        test = made
      } else {
        let word = body.lowercased()
        test = { $0.text.lowercased().contains(word) }
      }
      if negated {
        tests.append { @Sendable tweet in !test(tweet) }
      } else {
        tests.append(test)
      }
    }
    let all = tests
    return { tweet in all.allSatisfy { $0(tweet) } }
  }
}
