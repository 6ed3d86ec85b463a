/// A link, mention or hashtag in a tweet's text, placed in Unicode code points (v2's
/// `start`/`end`, v1.1's `indices`), as X counts them.
struct SandboxEntity: Sendable {
  enum Kind: Sendable {
    /// A link as it appears in the text (`https://t.co/...`), where it leads, how X shows it,
    /// and for a link to a tweet's media, the media's key.
    case url(String, expanded: String, display: String, mediaKey: String?)
    /// A mention of an existing account.
    case mention(SandboxUser)
    /// A hashtag, without `#`.
    case hashtag(String)
  }

  let kind: Kind
  let start: Int
  let end: Int

  /// The id of the account it mentions, if it is a mention.
  var mentionedUserID: String? {
    if case .mention(let user) = kind { return user.id }
    return nil
  }

  var isLink: Bool {
    if case .url = kind { return true }
    return false
  }

  var isHashtag: Bool {
    if case .hashtag = kind { return true }
    return false
  }
}
