import CommandLineSupport
import Foundation
import XAPI

/// `tweets sandbox serve`: the offline X API served over HTTP on 127.0.0.1, so any program (curl,
/// another language's client, `oauth1 request`, a second `tweets`) can talk to it as to X, with
/// the demo app and token of `tweets --sandbox`.
struct SandboxCommand: TweetsCommand {
  let name = "sandbox"
  /// Only what every command takes (an alias may give them); it signs nothing itself.
  let shared = SharedOptions.session
  // Each declared once: its default, its conversion and the words of its error.
  static let port = Option<UInt16>.value(
    "port", placeholder: "N", default: .value(8977), help: "The port on 127.0.0.1 (default \(.default); 0: any free port).",
    .worded("a port number from 0 to 65535") { UInt16($0) })
  static let tweetsPerUser = Option<Int>.value(
    "tweets-per-user", placeholder: "N", default: .value(60),
    help: "How many tweets each of the sandbox's three accounts has (default \(.default)).",
    .worded("a number from 1 to 100000") { Int($0).flatMap { (1...100_000).contains($0) ? $0 : nil } })
  static let oauth2Lifetime = Option<Int64>.value(
    "oauth2-lifetime", placeholder: "SECONDS", default: .value(7200),
    help: "How long an OAuth 2.0 access token lives (default \(.default), as X's), shorter to try renewals.",
    .worded("a number of seconds") { Int64($0).flatMap { $0 > 0 ? $0 : nil } })
  static let rateWindow = Option<Int64>.value(
    "rate-window", placeholder: "SECONDS", default: .value(900),
    help: "The rate limits' window (default \(.default), as X's), shorter for tests of long fetches.",
    .worded("a number of seconds from 1 to 86400") { Int64($0).flatMap { (1...86_400).contains($0) ? $0 : nil } })
  static let streamTimeScale = Option<Double>.value(
    "stream-time-scale", placeholder: "FACTOR", default: .value(1),
    help: "Multiplies the streams' keep-alive period (20 s, as X's) and the pace of their lines (default \(.default)); smaller for tests.",
    .worded("a number above 0 and at most 1", shown: { String(format: "%g", $0) }) { Double($0).flatMap { $0 > 0 && $0 <= 1 ? $0 : nil } })
  static let spelling = Option<Bool>.value(
    "spelling", placeholder: "NAMES", default: .value(false),
    help:
      "The names of v2 answers: tweet (default), as X's pages and real answers spell them, or post, the renamed fields of X's specification 2.167 (referenced_posts, edit_history_post_ids, note_post, includes.posts, repost_count); post.fields is taken beside tweet.fields either way.",
    .worded("tweet or post", shown: { $0 ? "post" : "tweet" }) { ["tweet": false, "post": true][$0] })
  static let recordExchanges = Option.value(
    "record-exchanges", placeholder: "FILE",
    help:
      "Append every answer the server sends to FILE, one JSON object a line (method, path, query, status, content_type, body; a stream's lines one by one), for a harness to check against X's OpenAPI specification. No request header is kept."
  )
  static let control = Option.flag(
    "control",
    help:
      "For test harnesses: serve the control API under /_control/ (scripted faults, clock skew, revocations, statistics) and each answer's verdict on its OAuth 1.0a signature (X-Sandbox-Verdict), and stop when standard input closes. The control API takes a request only with the token printed at start (control token: TOKEN) in X-Sandbox-Control-Token, a Host of 127.0.0.1, localhost or [::1] with the port, and JSON."
  )
  static let controlToken = Option.value(
    "control-token", placeholder: "TOKEN",
    help:
      "With --control: the control API's token (at least 16 visible ASCII characters) instead of a random one. Other local users can read a process's arguments: on a shared machine, read the printed token instead."
  )
  static let credits = Option<USD?>.value(
    "credits", placeholder: "USD",
    help:
      "Bill as X's pay-per-use does, against this many dollars of credits: each post, user or follower charged at X's prices once per UTC day (owned reads $0.001), writes and counts per request, 402 CreditsDepleted once spent. Off by default: the sandbox is free. The control API's /_control/billing reads and tops up the account.",
    .worded("an amount of dollars such as 5 or 0.50") { USD($0) })
  static let postCap = Option<Int?>.value(
    "post-cap", placeholder: "N",
    help: "Refuse post reads past N posts charged with X's 429 usage-capped (the rate-limit headers still showing headroom). Off by default.",
    .worded("a number of posts (0 or more)") { Int($0).flatMap { $0 >= 0 ? $0 : nil } })

  var spec: CommandSpec {
    makeSpec(
      summary: "Serve the offline X API over HTTP on 127.0.0.1 (tweets sandbox serve).",
      options: [
        Self.port, Self.tweetsPerUser, Self.oauth2Lifetime, Self.rateWindow, Self.streamTimeScale, Self.credits, Self.postCap, Self.spelling,
        Self.recordExchanges, Self.control, Self.controlToken,
      ],
      positionals: [PositionalSpec("action", help: "serve")],
      discussion: """
        The demo app: consumer key sandbox-consumer-key, secret sandbox-consumer-secret; the demo
        access token 1001-sandbox-access-token, secret sandbox-access-token-secret; the app-only
        bearer token sandbox-bearer-token; the OAuth 2.0 client sandbox-client-id (secret
        sandbox-client-secret), whose authorize page at /i/oauth2/authorize consents at once.
        Every OAuth 1.0a signature is checked, as X checks it. Only 127.0.0.1 is listened on;
        a request's head is at most 64 KiB (431), its body 16 MiB (413), at most 64 connections
        are served at once (503), and a client silent for 30 s is dropped (408).
        Example: tweets sandbox serve & tweets --base-url http://127.0.0.1:8977 whoami
        """)
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    guard arguments.positionals == ["serve"] else {
      throw UsageError("the sandbox has one action, serve: tweets sandbox serve [--port N]")
    }
    let port = try arguments.value(Self.port)
    let count = try arguments.value(Self.tweetsPerUser)
    let lifetime = try arguments.value(Self.oauth2Lifetime)
    let window = try arguments.value(Self.rateWindow)
    let scale = try arguments.value(Self.streamTimeScale)
    let credits = try arguments.value(Self.credits)
    let postCap = try arguments.value(Self.postCap)
    let control = arguments[Self.control]
    let postSpelling = try arguments.value(Self.spelling)
    let exchangeLog = arguments[Self.recordExchanges].map { URL(fileURLWithPath: $0) }
    if let exchangeLog {
      let files = FileManager.default
      guard files.fileExists(atPath: exchangeLog.path) || files.createFile(atPath: exchangeLog.path, contents: nil),
        files.isWritableFile(atPath: exchangeLog.path)
      else {
        throw TweetsFailure(
          "--record-exchanges cannot write to \(exchangeLog.path): check that its folder exists and that the file is writable", exitCode: .failure)
      }
    }
    let token = try arguments[Self.controlToken].map { text throws(UsageError) -> String in
      guard control else { throw UsageError("--control-token goes with --control, which serves the control API it guards") }
      guard text.utf8.count >= session.sandboxType.minimumControlTokenLength, text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
        throw UsageError(
          "--control-token takes at least \(session.sandboxType.minimumControlTokenLength) visible ASCII characters (no spaces); leave it out for a random token"
        )
      }
      return text
    }
    let server: any TweetsSandboxServer
    do {
      server = try session.sandboxType.serve(
        TweetsSandboxSettings(
          port: port, tweetsPerUser: count, controlAPI: control, controlToken: token, oauth2Lifetime: lifetime, rateWindow: window,
          streamTimeScale: scale, credits: credits, postCap: postCap, postSpelling: postSpelling,
          exchangeLog: exchangeLog))
    } catch {
      throw TweetsFailure("\(error); choose another --port (0 picks a free one)", exitCode: .failure)
    }
    // Before the URL line, which a harness waits for: the token is known once that arrives.
    if let token = server.controlToken { session.terminal.out("control token: \(token)") }
    session.terminal.out("Serving the X sandbox at \(server.baseURL.absoluteString)")
    session.terminal.err("The demo app and token are in `tweets help sandbox`. Stop it with Ctrl-C.")
    if credits != nil || postCap != nil {
      let balance = credits.map { "\($0) of credits" } ?? "no credit limit"
      session.terminal.err("Billing as X's pay-per-use does: \(balance), " + (postCap.map { "a cap of \($0) posts." } ?? "no post cap."))
    }
    if control {
      // A test harness that dies closes our standard input: nothing is left behind.
      Thread {
        while !FileHandle.standardInput.availableData.isEmpty {}
        exit(0)
      }.start()
    }
    while true { try await Task.sleep(nanoseconds: 3_600_000_000_000) }
  }
}

extension ArgumentConversion {
  /// A conversion whose error reads `--NAME takes EXPECTING, not TEXT` (the sandbox's words).
  fileprivate static func worded(
    _ expecting: String, shown: @escaping @Sendable (Value) -> String = { "\($0)" }, _ parse: @escaping @Sendable (String) -> Value?
  ) -> Self {
    Self(failure: { option, text in "--\(option) takes \(expecting), not \(text)" }, shown: shown, parse)
  }
}
