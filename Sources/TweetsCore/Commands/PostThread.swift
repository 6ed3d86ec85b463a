import CommandLineSupport
internal import CryptoPrimitives
import Foundation
import XAPI

/// `tweets post --thread FILE`: posts separated by a line holding only `---`, each replying to
/// the one before, with a checkpoint beside the file (`FILE.checkpoint`) so that a thread
/// stopped by a kill or a failure goes on with `--resume` after the last post X confirmed,
/// posting nothing twice: a post that was in flight when the process died is looked up among
/// the account's latest posts before it is sent again.
enum PostThread {
  static let thread = Option.value(
    "thread", placeholder: "FILE", help: "Post a thread: posts separated by a line holding only ---; - reads standard input.")
  /// The same `--resume` the fetches take: here it resumes the thread's checkpoint.
  static let resume = GlobalOptions.resumeOption

  /// What the checkpoint keeps: which thread (its text's digest), the ids X confirmed, and the
  /// post being sent when the process stopped.
  struct Checkpoint: Codable, Equatable {
    var thread: String
    var posted: [String]
    var inFlight: Int?

    enum CodingKeys: String, CodingKey {
      case thread, posted
      case inFlight = "in_flight"
    }
  }

  /// The posts of a thread file: split at lines holding only `---` (spaces and CRLF allowed),
  /// each trimmed; an empty one is refused, naming it.
  static func posts(_ text: String) throws -> [String] {
    var posts: [String] = [], current: [Substring] = []
    // A CRLF is one Character in Swift: split on any line end.
    for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      if line.trimmingCharacters(in: .whitespaces) == "---" {
        posts.append(current.joined(separator: "\n"))
        current = []
      } else {
        current.append(line)
      }
    }
    posts.append(current.joined(separator: "\n"))
    posts = posts.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    if let empty = posts.firstIndex(where: \.isEmpty) { throw UsageError("post \(empty + 1) of the thread is empty") }
    return posts
  }

  static func run(_ path: String, _ arguments: ParsedArguments, long: Bool, _ session: Session) async throws -> ExitCode {
    let terminal = session.terminal
    let fromInput = path == "-"
    let text: String
    if fromInput {
      var lines: [String] = []
      while let line = terminal.readLine() { lines.append(line) }
      text = lines.joined(separator: "\n")
    } else {
      guard let data = FileManager.default.contents(atPath: path) else { throw UsageError("cannot read the thread file \(path)") }
      text = String(decoding: data, as: UTF8.self)
    }
    let posts = try posts(text)
    for (index, post) in posts.enumerated() where PostLength.weighted(post) > PostLength.limit && !long {
      throw UsageError(
        "post \(index + 1) of the thread is \(PostLength.weighted(post)) characters as X counts them; X takes \(PostLength.limit): shorten it, or add --long (X Premium)"
      )
    }
    let digest = Data(try DigestAlgorithm.sha256.digest(of: Array(text.utf8))).base64EncodedString()
    let checkpointFile = URL(fileURLWithPath: path + ".checkpoint")
    var checkpoint = Checkpoint(thread: digest, posted: [], inFlight: nil)
    if arguments[resume] {
      guard !fromInput else { throw UsageError("--resume needs a thread file (its checkpoint lies beside it), not standard input") }
      if let data = FileManager.default.contents(atPath: checkpointFile.path) {
        checkpoint = try JSONDecoder().decode(Checkpoint.self, from: data)
        guard checkpoint.thread == digest else {
          throw UsageError("\(path) changed since its checkpoint was written; remove \(checkpointFile.path) to post it as a new thread")
        }
      }
    } else if !fromInput, FileManager.default.fileExists(atPath: checkpointFile.path) {
      throw UsageError("\(checkpointFile.path) exists: add --resume to go on with that thread, or remove it to post the thread again")
    }
    if checkpoint.posted.count == posts.count {
      terminal.out("The thread is complete (\(posts.count) posts): nothing to post.")
      return .success
    }

    let (client, profile) = try session.client(api: .v2)
    let budget = try session.budget.behavior(session)
    let remaining = posts[checkpoint.posted.count...]
    let total = remaining.reduce(USD.zero) { $0 + budget.pricing.priceOfPost($1) }
    terminal.err("tweets: the thread's \(remaining.count) posts to send cost \(total) on X's pay-per-use billing.")
    try await budget.checkAfterReading(total, for: "the thread's \(remaining.count) posts")
    func save() throws {
      guard !fromInput else { return }
      do {
        try AtomicFile.write(try JSONEncoder().encode(checkpoint), to: checkpointFile)
      } catch let failure as AtomicFile.Failure {
        throw TweetsFailure(failure.description, exitCode: .failure)
      }
    }
    for index in checkpoint.posted.count..<posts.count {
      let parent = checkpoint.posted.last
      if checkpoint.inFlight == index, let found = try await alreadyPosted(posts[index], replyingTo: parent, client: client, profile: profile) {
        terminal.err(TerminalText.visible("tweets: post \(index + 1) was sent before the stop and X has it (\(found)): not sending it again."))
        checkpoint.posted.append(found)
        checkpoint.inFlight = nil
        try save()
        continue
      }
      checkpoint.inFlight = index
      try save()
      let posted = try await client.v2.post(text: posts[index], inReplyTo: parent)
      checkpoint.posted.append(posted.id)
      checkpoint.inFlight = nil
      try save()
      terminal.out(TerminalText.visible("Posted \(index + 1)/\(posts.count) \(posted.id): https://x.com/i/status/\(posted.id)"))
    }
    return .success
  }

  /// The id of a post of the account with `text` replying to `parent`, among its latest 20.
  static func alreadyPosted(_ text: String, replyingTo parent: String?, client: XClient, profile: Profile?) async throws -> String? {
    let userID: String
    if let known = profile?.userID { userID = known } else { userID = try await client.v2.me().id }
    let latest = try await client.v2.userTweets(userID: userID, limit: 20).tweets().reduce(into: [Tweet]()) { $0.append($1) }
    return latest.first { tweet in
      tweet.text == text
        && (parent == nil || (tweet.referencedTweets ?? []).contains { $0.kind == .repliedTo && $0.id == parent })
    }?.id
  }
}
