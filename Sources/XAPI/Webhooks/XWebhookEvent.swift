import Foundation

/// The events of one verified webhook POST (an Account Activity body's families in name order,
/// each family's items in X's order), and the body as it came.
/// One POST of the Account Activity API carries arrays of events by family
/// (`tweet_create_events`, `follow_events`...) beside `for_user_id` and `users`; one of the X
/// Activity API carries one event under `data` (`event_type` `post.create`, `follow.follow`...).
/// Nothing is dropped: a family or a body not known here is an event of its own, kept whole.
///
/// ```swift
/// let delivery = XWebhookDelivery(body: body)
/// for event in delivery.events where event.kind == .postCreated {
///   print(event.tweets.first?.text ?? "")
/// }
/// ```
public struct XWebhookDelivery: Sendable {
  /// The body as received (and signed).
  public let body: Data
  /// Its events; never empty: a body that is no known shape is one ``XWebhookEvent/Kind/unknown`` event.
  public let events: [XWebhookEvent]

  /// Reads the events of `body`, which should have been verified (``XWebhookReceiver/verify(body:headers:)``).
  public init(body: Data) {
    self.body = body
    events = XWebhookEvent.events(in: body)
  }
}

/// One webhook event: its type as X names it, a kind to switch on, what it says of posts and
/// accounts, and its own JSON whole.
///
/// ```swift
/// switch event.kind {
/// case .postCreated: archive(event.tweets)
/// case .followed: print(event.users.map(\.username))
/// default: keep(event.json)
/// }
/// ```
public struct XWebhookEvent: Sendable {
  /// Which API sent it, by the body's shape.
  public enum Source: String, Sendable, Hashable {
    /// The Account Activity API: arrays of events by family.
    case accountActivity = "account_activity"
    /// The X Activity API: `data.event_type`.
    case activity
    /// Neither shape (or not JSON): kept whole.
    case unknown
  }

  /// What happened, across both APIs; ``type`` keeps X's own name.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// A post created (`tweet_create_events`, `post.create`, `post.mention.create`...).
    case postCreated = "post_created"
    /// A post deleted (`tweet_delete_events`, `post.delete`).
    case postDeleted = "post_deleted"
    /// A like (`favorite_events`, `like.create`).
    case liked
    /// A follow (`follow_events` of type follow, `follow.follow`).
    case followed
    /// An unfollow (`follow_events` of type unfollow, `follow.unfollow`).
    case unfollowed
    /// A block or unblock (`block_events`, `block.*`).
    case blocked
    /// A mute or unmute (`mute_events`, `mute.*`).
    case muted
    /// A direct message (`direct_message_events`, `dm.*`, `chat.*`).
    case directMessage = "direct_message"
    /// Someone typing, or having read, direct messages.
    case directMessageIndicator = "direct_message_indicator"
    /// A profile changed (`user_event`, `profile.update.*`).
    case profile
    /// The app's access revoked (`user_event` revoke, `oauth.revoke`).
    case revoked
    /// A type not known here (a new family, a new event type): see ``XWebhookEvent/type`` and ``XWebhookEvent/json``.
    case other
    /// A body of no known shape, kept whole in ``XWebhookEvent/json``.
    case unknown
  }

  /// The API it came from.
  public let source: Source
  /// X's name: the family (`tweet_create_events`) or the event type (`post.create`); `unknown`
  /// for a body of no known shape.
  public let type: String
  /// What happened.
  public let kind: Kind
  /// The account it is for: `for_user_id`, or the Activity API's `filter.user_id`.
  public let forUserID: String?
  /// The event's own JSON: one item of a family's array, the Activity API's `data` object, or
  /// (for ``Kind/unknown``) the body unchanged.
  public let json: Data
  /// The posts it carries: a created post, a liked one, the Activity API's `includes.tweets`.
  public let tweets: [Tweet]
  /// The accounts it carries: a follow's source and target, a like's liker, `includes.users`.
  public let users: [XUser]
  /// The Account Activity body's members that are no events, as one JSON object: the `users`
  /// and `apps` maps X sends beside direct messages, which the items refer to by id; `nil`
  /// when there are none.
  public let context: Data?

  /// An event from its parts: for tests, and for events read some other way.
  public init(
    source: Source, type: String, kind: Kind, forUserID: String? = nil, json: Data, tweets: [Tweet] = [], users: [XUser] = [],
    context: Data? = nil
  ) {
    self.source = source
    self.type = type
    self.kind = kind
    self.forUserID = forUserID
    self.json = json
    self.tweets = tweets
    self.users = users
    self.context = context
  }

  /// The Account Activity API's families and the kind of each.
  static let families: [String: Kind] = [
    "tweet_create_events": .postCreated, "tweet_delete_events": .postDeleted, "favorite_events": .liked, "follow_events": .followed,
    "unfollow_events": .unfollowed, "block_events": .blocked, "unblock_events": .blocked, "mute_events": .muted, "unmute_events": .muted,
    "direct_message_events": .directMessage, "direct_message_indicate_typing_events": .directMessageIndicator,
    "direct_message_mark_read_events": .directMessageIndicator, "user_event": .revoked,
  ]

  /// The kind of an X Activity API event type, by its dotted name.
  static func kind(activity type: String) -> Kind {
    switch type {
    case "post.create", "post.mention.create", "post.quote.create", "post.repost.create", "post.reply.create": return .postCreated
    case "post.delete": return .postDeleted
    case "like.create": return .liked
    case "follow.follow": return .followed
    case "follow.unfollow": return .unfollowed
    case "oauth.revoke": return .revoked
    default: break
    }
    let prefix = type.split(separator: ".").first.map(String.init) ?? ""
    switch prefix {
    case "profile": return .profile
    case "block": return .blocked
    case "mute": return .muted
    case "dm", "chat": return .directMessage
    default: return .other
    }
  }

  /// The events of a body: by the Activity API's `data.event_type`, else by the Account
  /// Activity API's families, else the body whole.
  static func events(in body: Data) -> [XWebhookEvent] {
    let whole = [XWebhookEvent(source: .unknown, type: "unknown", kind: .unknown, json: body)]
    guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return whole }
    if let data = object["data"] as? [String: Any], let type = data["event_type"] as? String {
      return [activity(data, type: type)]
    }
    let forUserID = object["for_user_id"].flatMap(Self.string)
    let shared = object.filter { $0.key == "users" || $0.key == "apps" }
    let context = shared.isEmpty ? nil : serialized(shared)
    var accounts: [String: XUser] = [:]
    for case (let id, let value as [String: Any]) in object["users"] as? [String: Any] ?? [:] {
      accounts[id] = XUser(
        id: (value["id"] ?? value["id_str"]).flatMap(string) ?? id, username: value["screen_name"] as? String ?? "",
        name: value["name"] as? String ?? "")
    }
    var events: [XWebhookEvent] = []
    // Those with no family known here are events too, so that nothing X sent is lost.
    for (name, value) in object.sorted(by: { $0.key < $1.key }) where name != "for_user_id" && name != "users" && name != "apps" {
      let kind = families[name] ?? .other
      let items = (value as? [Any]) ?? [value]
      for item in items {
        events.append(accountActivity(item, family: name, kind: kind, forUserID: forUserID, context: context, accounts: accounts))
      }
    }
    return events.isEmpty ? whole : events
  }

  private static func activity(_ data: [String: Any], type: String) -> XWebhookEvent {
    let filter = data["filter"] as? [String: Any]
    let payload = data["payload"] as? [String: Any]
    let includes = data["includes"] as? [String: Any]
    let kind = kind(activity: type)
    var tweets: [Tweet] = []
    if kind == .postCreated, let payload, let tweet = decode(V2Tweet.self, payload)?.tweet(V2Expansions(nil)) { tweets.append(tweet) }
    for item in includes?["tweets"] as? [Any] ?? [] {
      if let tweet = decode(V2Tweet.self, item)?.tweet(V2Expansions(nil)), !tweets.contains(where: { $0.id == tweet.id }) { tweets.append(tweet) }
    }
    // Some includes wrap each user in `data` (post.delete's).
    var users = (includes?["users"] as? [Any] ?? []).compactMap { item in
      decode(V2User.self, item)?.user ?? ((item as? [String: Any])?["data"]).flatMap { decode(V2User.self, $0)?.user }
    }
    // A follow's two accounts are its payload (`source`, `target`: X's `FollowActivityResponsePayload`).
    if kind == .followed || kind == .unfollowed {
      for name in ["source", "target"] {
        if let user = payload?[name].flatMap({ decode(V2User.self, $0)?.user }), !users.contains(where: { $0.id == user.id }) { users.append(user) }
      }
    }
    return XWebhookEvent(
      source: .activity, type: type, kind: kind, forUserID: filter?["user_id"].flatMap(string), json: serialized(data), tweets: tweets, users: users)
  }

  private static func accountActivity(
    _ item: Any, family: String, kind: Kind, forUserID: String?, context: Data?, accounts: [String: XUser]
  ) -> XWebhookEvent {
    let object = item as? [String: Any]
    var kind = kind
    var tweets: [Tweet] = []
    var users: [XUser] = []
    switch family {
    case "tweet_create_events":
      if let tweet = decode(V1Tweet.self, item)?.tweet { tweets.append(tweet) }
      if let user = object?["user"].flatMap({ decode(V1User.self, $0) }) { users.append(user.user) }
    case "favorite_events":
      if let tweet = object?["favorited_status"].flatMap({ decode(V1Tweet.self, $0) })?.tweet { tweets.append(tweet) }
      if let user = object?["user"].flatMap({ decode(V1User.self, $0) }) { users.append(user.user) }
    case "follow_events", "block_events", "unblock_events", "mute_events", "unmute_events":
      if family == "follow_events", object?["type"] as? String == "unfollow" { kind = .unfollowed }
      for side in ["source", "target"] {
        if let user = object?[side].flatMap({ decode(V1User.self, $0) }) { users.append(user.user) }
      }
    case "direct_message_events", "direct_message_indicate_typing_events", "direct_message_mark_read_events":
      // The sender and the recipient, from the body's `users` map.
      let message = object?["message_create"] as? [String: Any]
      let ids = [
        message?["sender_id"], (message?["target"] as? [String: Any])?["recipient_id"], object?["sender_id"],
        (object?["target"] as? [String: Any])?["recipient_id"],
      ].compactMap { $0.flatMap(string) }
      for id in ids where !users.contains(where: { $0.id == id }) {
        if let account = accounts[id] { users.append(account) }
      }
    case "user_event":
      if object?["revoke"] == nil { kind = .profile }
    default:
      break
    }
    return XWebhookEvent(
      source: .accountActivity, type: family, kind: kind, forUserID: forUserID, json: serialized(item), tweets: tweets, users: users,
      context: context)
  }

  private static func decode<T: Decodable>(_ type: T.Type, _ value: Any) -> T? {
    guard JSONSerialization.isValidJSONObject(value), let data = try? JSONSerialization.data(withJSONObject: value) else { return nil }
    return try? PostSpelling.decoder().decode(type, from: data)
  }

  private static func serialized(_ value: Any) -> Data {
    (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .withoutEscapingSlashes])) ?? Data("null".utf8)
  }

  private static func string(_ value: Any) -> String? {
    if let text = value as? String { return text }
    if let number = value as? NSNumber { return number.stringValue }
    return nil
  }
}
