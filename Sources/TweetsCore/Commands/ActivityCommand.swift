import CommandLineSupport
import Foundation
import XAPI

/// `tweets activity subscribe|list|delete|stream`: the X Activity API, app-only as X serves it.
/// `subscribe` watches event types of one account (one subscription per type), `list` and
/// `delete` manage the subscriptions, `stream` writes the events of those without a webhook as
/// they happen, billed at X's price per event (``XActivityEventPrice``) and stopped by the budget
/// (``ActivityCommand+Stream``).
struct ActivityCommand: TweetsCommand {
  let name = "activity"
  /// `--format` writes `list`'s subscriptions (and `stream`'s events: jsonl or text); `--db`
  /// archives the stream's posts and users.
  let shared: SharedOptions = [.session, .consumer, .format, .database]
  static let user = Option<String?>.value("user", placeholder: "USER", help: "subscribe: the account to watch (a username or an id).")
  static let events = Option<String?>.value(
    "events", placeholder: "TYPE,...", help: "subscribe: X's event types, comma-separated (post.create,follow.follow,profile.update.bio...).")
  static let direction = Option<XActivityDirection?>.value(
    "direction", placeholder: "inbound|outbound", help: "subscribe: only events to the account (inbound) or by it (outbound).",
    ArgumentConversion(expecting: "inbound or outbound") { XActivityDirection(rawValue: $0) })
  static let webhook = Option<String?>.value("webhook", placeholder: "ID", help: "subscribe: deliver to this webhook instead of the stream.")
  static let tag = Option<String?>.value("tag", placeholder: "TAG", help: "subscribe: your tag, repeated in each event (1 to 200 characters).")
  static let output = Option<URL?>.value(
    "output", short: "o", placeholder: "FILE", help: "stream: append the events' lines to FILE instead of writing them to stdout.",
    recorded: .omitted, .file)
  static let limit = Option<Int?>.value("limit", placeholder: "N", help: "stream: stop after N events.", .integer(in: 1...Int.max))
  static let duration = Option<Double?>.value(
    "duration", placeholder: "SECONDS", help: "stream: stop after SECONDS seconds.",
    ArgumentConversion(failure: { option, text in "--\(option) takes a number of seconds, not \(text)" }) { text in
      Double(text).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
    })

  var spec: CommandSpec {
    makeSpec(
      summary: "The X Activity API: subscribe to an account's events, list and delete subscriptions, stream the events (app-only).",
      options: [Self.user, Self.events, Self.direction, Self.webhook, Self.tag, Self.output, Self.limit, Self.duration],
      positionals: [
        PositionalSpec("action", help: "subscribe, list, delete or stream."),
        PositionalSpec("argument", help: "delete: the subscription's ID.", optional: true),
      ],
      discussion: """
        tweets activity subscribe --user USER --events TYPE,... [--direction inbound|outbound] [--webhook ID] [--tag TAG]
        tweets activity list [--format text|json|jsonl|csv]
        tweets activity delete ID
        tweets activity stream [--format jsonl|text] [--output FILE | --db FILE] [--limit N] [--duration SECONDS]
        One subscription per event type, X's dotted names: post.create, post.delete,
        post.mention.create, post.reply.create, post.quote.create, post.repost.create,
        like.create, follow.follow, follow.unfollow, profile.update.* (bio, screenname, url...),
        dm.*, chat.*, spaces.*, news.new, mute.*, block.* (`tweets api --list` names them all).
        Events of subscriptions without --webhook come on the stream; with --webhook they are
        POSTed to that webhook (tweets webhook serve). X bills each event delivered: a post
        event as a post ($0.005), a follow and a received message $0.010, the others free;
        --max-cost and the profile's budget stop the stream before an event would pass them.
        Each stream line is the one tweets webhook serve writes (received_at, source, type,
        kind, for_user_id, event). X allows one stream connection per app. App-only:
        X_BEARER_TOKEN, or one obtained from the app's consumer key and secret.
        """)
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let words = arguments.positionals
    guard let action = words.first, ["subscribe", "list", "delete", "stream"].contains(action) else {
      throw UsageError("tweets activity subscribe --user USER --events TYPE,...|list|delete ID|stream")
    }
    let subscribing = [arguments[Self.user], arguments[Self.events], arguments[Self.webhook], arguments[Self.tag]].contains { $0 != nil }
    let direction = try arguments.value(Self.direction)
    if action != "subscribe", subscribing || direction != nil {
      throw UsageError("--user, --events, --direction, --webhook and --tag are for tweets activity subscribe")
    }
    let streaming = try arguments.value(Self.output) != nil || arguments.value(Self.limit) != nil || arguments.value(Self.duration) != nil
    if action != "stream", streaming || session.options.database != nil {
      throw UsageError("--output, --db, --limit and --duration are for tweets activity stream")
    }
    guard words.count == (action == "delete" ? 2 : 1) else {
      throw UsageError(action == "delete" ? "tweets activity delete ID (from tweets activity list)" : "tweets activity \(action) takes no argument")
    }
    if action == "stream" { return try await stream(arguments, session) }
    if session.options.format == .raw { throw UsageError("--format raw is for posts; tweets activity list takes text, json, jsonl or csv") }
    let client = try await session.appClient(for: "activity \(action)")
    let terminal = session.terminal
    switch action {
    case "subscribe":
      guard let user = arguments[Self.user], let events = arguments[Self.events] else {
        throw UsageError("tweets activity subscribe needs --user USER and --events TYPE,...")
      }
      let types = try Self.eventTypes(events)
      if let webhook = arguments[Self.webhook] { try WebhookCommand.checkID(webhook, action: "subscribe") }
      if let tag = arguments[Self.tag], !(1...200).contains(tag.count) { throw UsageError("--tag takes 1 to 200 characters") }
      let userID = try await Self.userID(user, client)
      for type in types {
        let made = try await client.v2.createActivitySubscription(
          eventType: type, userID: userID, direction: direction, tag: arguments[Self.tag], webhookID: arguments[Self.webhook])
        terminal.out(
          TerminalText.visible(
            "Subscribed \(made.id): \(made.eventType) of user \(made.userID ?? userID)"
              + (made.direction.map { " (\($0.rawValue))" } ?? "") + (made.webhookID.map { ", to webhook \($0)" } ?? ", on the stream")))
      }
    case "list":
      let writer = RecordWriter<XActivitySubscription>(format: session.options.format, terminal: terminal)
      let subscriptions = try await client.v2.activitySubscriptions()
      if subscriptions.isEmpty, session.options.format == .text { terminal.err("No activity subscriptions for this app.") }
      subscriptions.forEach(writer.write)
      writer.finish()
    default:
      let id = words[1]
      guard (1...19).contains(id.count), id.allSatisfy({ $0.isASCII && $0.isNumber }) else {
        throw UsageError("\(CommandSpec.shown(id)) is not a subscription id (digits, from tweets activity list)")
      }
      let deleted = try await client.v2.deleteActivitySubscription(id: id)
      terminal.out(TerminalText.visible(deleted ? "Deleted subscription \(id)." : "X did not say subscription \(id) was deleted."))
      return deleted ? .success : .failure
    }
    return .success
  }

  /// The event types of `--events`: each one X's specification names (2.167), in order, once.
  static func eventTypes(_ text: String) throws -> [String] {
    var types: [String] = []
    for part in text.split(separator: ",") {
      let type = part.trimmingCharacters(in: .whitespaces)
      guard XActivitySubscription.eventTypes.contains(type) else {
        throw UsageError(
          "\(CommandSpec.shown(type)) is not an event type of the X Activity API; they are: "
            + XActivitySubscription.eventTypes.joined(separator: ", "))
      }
      if !types.contains(type) { types.append(type) }
    }
    guard !types.isEmpty else { throw UsageError("--events takes X's event types, comma-separated: post.create,follow.follow") }
    return types
  }

  /// A user id from `--user`: digits as they are, a username (with or without `@`) looked up.
  static func userID(_ text: String, _ client: XClient) async throws -> String {
    if (1...19).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }) { return text }
    let name = text.hasPrefix("@") ? String(text.dropFirst()) : text
    guard (1...15).contains(name.count), name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
      throw UsageError("\(CommandSpec.shown(text)) is neither a username nor a user id")
    }
    return try await client.v2.user(username: name).id
  }
}
