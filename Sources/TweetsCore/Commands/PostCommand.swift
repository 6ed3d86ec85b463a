import CommandLineSupport
import Foundation
import NetworkClient
import XAPI

/// `tweets post`: a post with up to 4 images or one GIF or video (each with its alt text), a
/// reply or a quote; its length counted as X counts it before anything is sent.
struct PostCommand: TweetsCommand {
  let name = "post"
  let shared: SharedOptions = [.signedIn, .api, .format]
  static let media = Option.repeatable(
    "media", placeholder: "FILE", help: "An image (up to 4), or one GIF or video, uploaded with X's v2 media endpoints.")
  static let alt = Option.repeatable("alt", placeholder: "TEXT", help: "Alt text for the --media before it.")
  static let replyTo = Option.value("reply-to", placeholder: "ID", help: "Post as a reply to this post.")
  static let quote = Option.value("quote", placeholder: "ID", help: "Quote this post (X: needs an Enterprise plan).")
  static let long = Option.flag("long", help: "Allow a post longer than 280 (X Premium).")

  var spec: CommandSpec {
    makeSpec(
      summary: "Post, with media, as a reply or a quote; or a thread from a file.",
      options: [Self.media, Self.alt, Self.replyTo, Self.quote, Self.long] + Self.postOptions + [PostThread.thread, PostThread.resume],
      positionals: [PositionalSpec("text", help: "The text (words are joined with spaces).", optional: true, variadic: true)],
      discussion: """
        Prints the new post's id and URL; --format json prints X's whole answer. The length is
        counted as X counts it (a URL as 23, CJK characters and emoji as 2) and a post over 280
        is refused before anything is sent, unless --long. A poll, reply settings, an edit, a
        community and the labels are checked against X's limits before anything is sent too;
        --edit ID prints the new version's id (X keeps the earlier ones). X sells quoting
        (--quote) to Enterprise only since 2026-04-20: its 403 says so and is not retried.
        """)
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    if session.options.format == .raw { throw UsageError("--format raw is for the commands that fetch tweets or users (X's own responses)") }
    if let file = arguments[PostThread.thread] {
      guard arguments.positionals.isEmpty, !arguments.has(Self.media), !arguments.has(Self.replyTo), !arguments.has(Self.quote),
        !Self.givesPostOptions(arguments)
      else {
        throw UsageError("--thread FILE takes its posts from the file: leave out the text, --media, --reply-to, --quote and the post options")
      }
      return try await PostThread.run(file, arguments, long: arguments[Self.long], session)
    }
    if arguments[PostThread.resume] { throw UsageError("--resume goes with --thread FILE") }
    let text = arguments.positionals.joined(separator: " ")
    let media = try Self.mediaWithAltText(arguments)
    guard !text.isEmpty || !media.isEmpty else { throw UsageError("the text is empty (give text, --media, or both)") }
    let options = try Self.postOptions(arguments, hasMedia: !media.isEmpty)
    let length = PostLength.weighted(text)
    if length > PostLength.limit && !arguments[Self.long] {
      throw UsageError(
        "the post is \(length) characters as X counts them (URLs as 23, CJK and emoji as 2); X takes \(PostLength.limit), or more with X Premium: add --long"
      )
    }
    let (client, profile) = try session.client()
    let pricing = try session.budget.behavior(session).pricing
    let price = pricing.priceOfPost(text) + pricing.price(of: .mediaMetadata) * media.filter { $0.1 != nil }.count
    session.terminal.err(
      "tweets: this post costs \(price) on X's pay-per-use billing\(price >= pricing.price(of: .postCreateWithURL) ? " (its text holds a link)" : "")."
    )
    if session.options.api == .v1 {
      guard media.isEmpty, arguments[Self.replyTo] == nil, arguments[Self.quote] == nil, !Self.givesPostOptions(arguments) else {
        throw UsageError("--media, --reply-to, --quote and the post options are for API v2 (X retired v1.1's media upload); leave out --api 1.1")
      }
      return try write(try await client.v1.updateStatus(text), body: nil, profile: profile, session)
    }
    var ids: [String] = []
    for (file, altText) in media {
      let uploaded = try await Self.upload(file, altText: altText, client: client, session)
      ids.append(uploaded.id)
    }
    let (tweet, response) = try await Self.quoteExplained(arguments[Self.quote] != nil) {
      try await client.v2.createPost(text: text, inReplyTo: arguments[Self.replyTo], quoting: arguments[Self.quote], mediaIDs: ids, options: options)
    }
    if let earlier = options.editing, session.options.format != .json, session.options.format != .jsonl {
      session.terminal.out(TerminalText.visible("Edited \(earlier): the new version is \(tweet.id), https://x.com/i/status/\(tweet.id)"))
      return .success
    }
    return try write(tweet, body: response.body, profile: profile, session)
  }

  /// Prints the new post: its id and URL as text, X's answer as JSON.
  private func write(_ posted: Tweet, body: Data?, profile: Profile?, _ session: Session) throws -> ExitCode {
    switch session.options.format {
    case .json, .jsonl:
      if let body {
        session.terminal.out(String(decoding: body, as: UTF8.self))
        return .success
      }
      var tweet = posted
      if tweet.author == nil, let id = profile?.userID { tweet.author = Author(id: id, username: profile?.username) }
      let writer = TweetWriter(format: session.options.format, terminal: session.terminal)
      writer.write(tweet)
      writer.finish()
    default:
      session.terminal.out(TerminalText.visible("Posted \(posted.id): https://x.com/i/status/\(posted.id)"))
    }
    return .success
  }

  /// Each `--media` with the `--alt` given after it, before the next `--media`; the rules of a
  /// post checked before any byte is sent: up to 4 images, or one GIF or video.
  static func mediaWithAltText(_ arguments: ParsedArguments) throws -> [(file: URL, altText: String?)] {
    var media: [(file: URL, altText: String?)] = []
    for (name, value) in arguments.valuesInOrder {
      if name == Self.media.spec.name {
        media.append((URL(fileURLWithPath: value), nil))
      } else if name == Self.alt.spec.name {
        guard let last = media.indices.last else { throw UsageError("--alt describes the --media before it: give --media FILE first") }
        guard media[last].altText == nil else { throw UsageError("one --alt per --media: \(media[last].file.lastPathComponent) has two") }
        media[last].altText = value
      }
    }
    var processed = 0
    for entry in media {
      do {
        if try MediaKind(file: entry.file).isProcessed { processed += 1 }
      } catch {
        throw TweetsFailure(error.description, exitCode: .usage)
      }
    }
    guard media.count <= 4, processed == 0 || media.count == 1 else {
      throw UsageError("a post takes up to 4 images, or one GIF or video (\(media.count) files given)")
    }
    for entry in media where !FileManager.default.isReadableFile(atPath: entry.file.path) {
      throw UsageError("cannot read \(entry.file.path)")
    }
    return media
  }

  /// Uploads one file, with progress on standard error when it is a terminal.
  static func upload(_ file: URL, altText: String?, client: XClient, _ session: Session) async throws -> UploadedMedia {
    let terminal = session.terminal
    let start = Date()
    let name = file.lastPathComponent
    let uploaded = try await client.v2.uploadMedia(file, altText: altText) { progress in
      guard terminal.errorIsInteractive else { return }
      if let (state, percent) = progress.processing {
        terminal.status("\(name): X is processing it (\(state)\(percent.map { ", \($0)%" } ?? ""))")
      } else {
        let rate = Double(progress.bytesSent) / max(0.001, Date().timeIntervalSince(start)) / 1_000_000
        let percent = Int(Double(progress.bytesSent) * 100 / Double(max(1, progress.totalBytes)))
        terminal.status(
          "\(name): \(progress.bytesSent) of \(progress.totalBytes) bytes (\(percent)%), \(String(format: "%.1f", rate)) MB/s, segment \(progress.segment + 1) of \(progress.segments)"
        )
      }
    }
    terminal.status("")
    terminal.err(TerminalText.visible("Uploaded \(name) (media \(uploaded.id))."))
    return uploaded
  }
}
