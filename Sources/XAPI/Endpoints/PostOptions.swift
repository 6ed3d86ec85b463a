/// What a new post may carry besides its text, reply, quote and media (`POST /2/tweets`): a
/// poll, who may reply, an edit of an earlier post, a community, and X's two labels. Checked
/// before anything is sent (``validated(hasMedia:quoting:)``), with X's limits.
///
/// ```swift
/// var options = PostOptions()
/// options.poll = .init(options: ["Tabs", "Spaces"], durationMinutes: 60)
/// options.replySettings = .following
/// _ = try await client.v2.createPost(text: "Which?", options: options.validated())
/// ```
public struct PostOptions: Sendable, Hashable {
  /// A poll: 2 to 4 choices of 1 to 25 characters, open 5 minutes to 7 days.
  public struct Poll: Sendable, Hashable {
    /// The choices, in order.
    public var options: [String]
    /// How long it stays open, in minutes (5 to 10080).
    public var durationMinutes: Int

    /// A poll from its choices and duration.
    public init(options: [String], durationMinutes: Int) {
      self.options = options
      self.durationMinutes = durationMinutes
    }
  }

  /// Who may reply (X's `reply_settings`); everyone when `nil`.
  public enum ReplySettings: String, Sendable, Hashable, CaseIterable {
    /// The accounts the author follows.
    case following
    /// The accounts the post mentions.
    case mentionedUsers
    /// The author's subscribers.
    case subscribers
    /// Verified accounts.
    case verified
  }

  /// Why options cannot be sent: X would refuse them.
  public struct Invalid: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, and X's limit.
    public let description: String
  }

  /// A poll, or `nil`.
  public var poll: Poll?
  /// Who may reply, or `nil` for everyone.
  public var replySettings: ReplySettings?
  /// The id of the author's earlier post this one edits (X's `edit_options.previous_post_id`):
  /// X makes a new version of it, within an hour of the first and up to five edits.
  public var editing: String?
  /// The community to post in (X's `community_id`).
  public var communityID: String?
  /// Labels the post a paid promotion.
  public var paidPartnership = false
  /// Labels the post's media as made with AI.
  public var madeWithAI = false

  /// No options: a plain post.
  public init() {}

  /// The options when X would take them, with the text, media and quote they go with; else
  /// ``Invalid`` saying why (X: a poll excludes media and a quote; 2 to 4 choices of 1 to 25
  /// characters; 5 to 10080 minutes; ids are digits).
  public func validated(hasMedia: Bool = false, quoting: Bool = false) throws(Invalid) -> PostOptions {
    if let poll {
      guard (2...4).contains(poll.options.count) else { throw Invalid(description: "a poll has 2 to 4 choices (\(poll.options.count) given)") }
      if let bad = poll.options.first(where: { !(1...25).contains($0.count) }) {
        throw Invalid(description: "a poll choice is 1 to 25 characters: \"\(bad)\" has \(bad.count)")
      }
      guard (5...10080).contains(poll.durationMinutes) else {
        throw Invalid(description: "a poll is open 5 to 10080 minutes (7 days), not \(poll.durationMinutes)")
      }
      guard !hasMedia, !quoting else { throw Invalid(description: "a poll goes without media and without a quote") }
    }
    for (name, id) in [("the post to edit", editing), ("the community", communityID)] {
      if let id, !(1...19).contains(id.count) || !id.allSatisfy(\.isASCII) || !id.allSatisfy(\.isNumber) {
        throw Invalid(description: "\(name) is an id of 1 to 19 digits, not \"\(id)\"")
      }
    }
    return self
  }
}
