import CommandLineSupport
import XAPI

/// `tweets post`'s options beyond text, media, reply and quote: a poll, who may reply, an
/// edit, a community and X's labels, read into ``PostOptions`` and checked against X's limits
/// before anything is sent.
extension PostCommand {
  static let poll = Option<String?>.value(
    "poll", placeholder: "\"A|B|C\"", help: "A poll of 2 to 4 choices (1 to 25 characters each), separated by |; not with --media or --quote.")
  static let pollMinutes = Option<Int?>.value(
    "poll-minutes", placeholder: "N", help: "How long the poll is open, 5 to 10080 minutes (default 1440, a day).", .integer(in: 1...Int.max))
  static let replySettings = Option<String?>.value(
    "reply-settings", placeholder: "WHO", help: "Who may reply: following, mentionedUsers, subscribers or verified (default: everyone).")
  static let edit = Option<String?>.value(
    "edit", placeholder: "ID", help: "Edit your post ID (X makes a new version: within an hour, five times at most).")
  static let community = Option<String?>.value("community", placeholder: "ID", help: "Post in this community.")
  static let paidPartnership = Option.flag("paid-partnership", help: "Label the post a paid promotion.")
  static let madeWithAI = Option.flag("made-with-ai", help: "Label the post's media as made with AI.")

  /// The options of this group, in help order.
  static let postOptions: [any OptionDeclaration] = [poll, pollMinutes, replySettings, edit, community, paidPartnership, madeWithAI]

  /// Whether any of them was given (a thread and v1.1 take none).
  static func givesPostOptions(_ arguments: ParsedArguments) -> Bool {
    arguments[poll] != nil || arguments.has(pollMinutes) || arguments[replySettings] != nil || arguments[edit] != nil
      || arguments[community] != nil || arguments[paidPartnership] || arguments[madeWithAI]
  }

  /// The options given, checked as X checks them; a usage error saying what X would refuse.
  static func postOptions(_ arguments: ParsedArguments, hasMedia: Bool) throws -> PostOptions {
    var options = PostOptions()
    let minutes = try arguments.value(pollMinutes)
    if let choices = arguments[poll] {
      options.poll = .init(
        options: choices.split(separator: "|", omittingEmptySubsequences: false).map(String.init), durationMinutes: minutes ?? 1440)
    } else if minutes != nil {
      throw UsageError("--poll-minutes goes with --poll \"A|B\"")
    }
    if let who = arguments[replySettings] {
      guard let settings = PostOptions.ReplySettings(rawValue: who) else {
        throw UsageError(
          "--reply-settings is one of " + PostOptions.ReplySettings.allCases.map(\.rawValue).joined(separator: ", ")
            + ", not \(CommandSpec.shown(who))")
      }
      options.replySettings = settings
    }
    options.editing = arguments[edit]
    options.communityID = arguments[community]
    options.paidPartnership = arguments[paidPartnership]
    options.madeWithAI = arguments[madeWithAI]
    do {
      return try options.validated(hasMedia: hasMedia, quoting: arguments[quote] != nil)
    } catch {
      throw UsageError(error.description)
    }
  }

  /// `work`, with X's 403 to a quote explained: X sells quote posts to Enterprise only (the
  /// row's ``XEndpoint/Access/enterpriseWith(_:because:)``).
  static func quoteExplained<T>(_ quoting: Bool, _ work: () async throws -> T) async throws -> T {
    do {
      return try await work()
    } catch let error as XError {
      guard quoting, case .enterpriseWith(let option, let reason) = XEndpoint.createPosts.access, Self.isForbidden(error) else { throw error }
      throw XError.enterpriseOnly(endpoint: "\(XEndpoint.createPosts) with \(option)", reason: reason, message: Self.message(error))
    }
  }

  private static func isForbidden(_ error: XError) -> Bool {
    switch error {
    case .api(403, _, _, _), .clientNotEnrolled, .accessLevel: true
    default: false
    }
  }

  private static func message(_ error: XError) -> String {
    switch error {
    case .api(_, _, let message, _), .clientNotEnrolled(let message), .accessLevel(let message): message
    default: error.description
    }
  }
}
