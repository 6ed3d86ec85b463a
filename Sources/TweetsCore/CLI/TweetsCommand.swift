import CommandLineSupport
import XAPI

/// One `tweets` command: a ``Command`` run in a ``Session``, ending with an ``ExitCode``.
protocol TweetsCommand: Command where Context == Session, Status == ExitCode {
  /// Its name, as typed after `tweets`.
  var name: String { get }
  /// The groups of shared options it takes, declared once: its spec lists them.
  var shared: SharedOptions { get }
}

extension TweetsCommand {
  /// The command's own options followed by the shared ones it takes (``shared``).
  func makeSpec(summary: String, options: [any OptionDeclaration] = [], positionals: [PositionalSpec] = [], discussion: String = "") -> CommandSpec {
    CommandSpec(name: "tweets \(name)", summary: summary, options: options + shared.options, positionals: positionals, discussion: discussion)
  }

  /// The id of `username` (with or without `@`), or the logged-in user's without one: the
  /// profile's, when the token in use is the profile's (no access token in the environment).
  func userID(_ username: String?, _ client: XClient, _ session: Session, profile: Profile?) async throws -> String {
    if let username { return try await client.v2.user(username: Self.bareUsername(username)).id }
    let tokenFromEnvironment = session.environment["X_ACCESS_TOKEN"] ?? session.environment["TWITTER_ACCESS_TOKEN"]
    if let stored = profile?.userID, tokenFromEnvironment == nil { return stored }
    return try await client.v2.me().id
  }

  /// A username without its `@`.
  static func bareUsername(_ text: String) -> String { text.hasPrefix("@") ? String(text.dropFirst()) : text }

  /// The one positional argument, a numeric id.
  func tweetID(_ arguments: ParsedArguments, what: String = "tweet id") throws -> String {
    guard let id = arguments.positionals.first, IDLookup.isTweetID(id) else {
      throw UsageError("\(CommandSpec.shown(arguments.positionals.first ?? "")) is not a \(what)")
    }
    return id
  }
}
