import Foundation

/// One post from the filtered stream: the decoded tweet (author, media and referenced tweets
/// resolved from `includes`), the `includes` themselves, the rules it matched, and the line as X
/// sent it, so that it can be stored or written unchanged.
///
/// ```swift
/// for try await item in app.v2.filteredStream() {
///   print(item.matchingRules.compactMap(\.tag), item.tweet.text)
///   archive.append(item.line)
/// }
/// ```
public struct StreamedTweet: Sendable {
  /// The post, with what `includes` says of it.
  public let tweet: Tweet
  /// The line's `includes`: the accounts, posts and media it references.
  public let includes: StreamIncludes
  /// The rules the post matched (`matching_rules`): their ids and tags.
  public let matchingRules: [MatchingRule]
  /// The line as X sent it (its JSON object, without the line break).
  public let line: Data

  /// An item from its parts: for a store's tests, or a stream read some other way.
  public init(tweet: Tweet, includes: StreamIncludes = StreamIncludes(), matchingRules: [MatchingRule] = [], line: Data = Data()) {
    self.tweet = tweet
    self.includes = includes
    self.matchingRules = matchingRules
    self.line = line
  }
}

/// A rule a streamed post matched: its id and tag.
public struct MatchingRule: Sendable, Hashable, Codable {
  /// The rule's id.
  public let id: String
  /// The rule's tag; `nil` when it has none.
  public let tag: String?

  /// A matching rule from its parts.
  public init(id: String, tag: String? = nil) {
    self.id = id
    self.tag = tag
  }
}

/// A streamed post's `includes`, decoded.
public struct StreamIncludes: Sendable {
  /// `includes.users`.
  public let users: [XUser]
  /// `includes.tweets` (the referenced posts).
  public let tweets: [Tweet]
  /// `includes.media`.
  public let media: [Media]

  /// Includes from their parts; none by default.
  public init(users: [XUser] = [], tweets: [Tweet] = [], media: [Media] = []) {
    self.users = users
    self.tweets = tweets
    self.media = media
  }
}

/// What one line of the stream is.
enum StreamLine {
  /// A post.
  case tweet(StreamedTweet)
  /// X's words about the stream instead of a post (`operational-disconnect`, say).
  case problems([XProblem])
  /// Something else: not JSON, or JSON of another shape.
  case unreadable(String)

  private struct Wire: Decodable {
    let data: V2Tweet?
    let includes: V2Includes?
    let matchingRules: [MatchingRule]?
    let errors: [XProblem]?

    enum CodingKeys: String, CodingKey {
      case data, includes, errors
      case matchingRules = "matching_rules"
    }
  }

  init(_ line: Data) {
    let wire: Wire
    do {
      wire = try PostSpelling.decoder().decode(Wire.self, from: line)
    } catch {
      self = .unreadable(String(decoding: line.prefix(200), as: UTF8.self))
      return
    }
    guard let data = wire.data else {
      self = wire.errors.map { .problems($0) } ?? .unreadable(String(decoding: line.prefix(200), as: UTF8.self))
      return
    }
    let expansions = V2Expansions(wire.includes)
    let includes = StreamIncludes(
      users: (wire.includes?.users ?? []).map(\.user), tweets: (wire.includes?.tweets ?? []).map { $0.tweet(expansions, expandingReferences: false) },
      media: (wire.includes?.media ?? []).map(\.media))
    self = .tweet(StreamedTweet(tweet: data.tweet(expansions), includes: includes, matchingRules: wire.matchingRules ?? [], line: line))
  }
}
