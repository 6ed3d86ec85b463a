import CommandLineSupport
import DateFormats
import Foundation
import Loopback
import NetworkClient
import XAPI
import XArchive

/// `tweets webhook serve|register|list|check|delete|replay`. `serve` is a receiver of X's webhooks on 127.0.0.1, for the user's own HTTPS
/// proxy or tunnel to forward to (X calls only public HTTPS URLs without a port). It answers
/// X's challenge-response checks, verifies each event POST's signature with the app's consumer
/// secret before reading it (``XWebhookReceiver``), and writes every event as one JSON line;
/// with `--db`, the posts and accounts the events carry go to the archive as well. What is not
/// signed is refused and said on stderr, without its body. The other actions manage the app's
/// webhooks at X, app-only (a bearer token) as X requires (``WebhookCommand+Manage``).
struct WebhookCommand: TweetsCommand {
  let name = "webhook"
  /// The consumer secret (`--consumer-secret`, `X_CONSUMER_SECRET` or the profile's) signs
  /// X's deliveries; `--db` archives their posts and users; `--format` writes `list`'s webhooks.
  let shared: SharedOptions = [.session, .consumer, .format, .database]
  static let port = Option<UInt16>.value(
    "port", placeholder: "N", default: .value(8978), help: "The port on 127.0.0.1 (default \(.default); 0: any free port).",
    ArgumentConversion(failure: { option, text in "--\(option) takes a port number from 0 to 65535, not \(text)" }) { UInt16($0) })
  static let output = Option<URL?>.value(
    "output", short: "o", placeholder: "FILE", help: "Append the events' lines to FILE instead of writing them to stdout.",
    recorded: .omitted, .file)
  static let maxBody = Option<Int>.value(
    "max-body", placeholder: "BYTES", default: .value(XWebhookReceiver.defaultMaxBodyBytes),
    help: "The largest event body accepted (default \(.default)); a longer one is refused with 413 before it is read.",
    .integer(in: 1...(64 * 1_048_576)))

  static let signedWith = Option<XWebhookReceiver.Scheme>.value(
    "signed-with", placeholder: "SECRET", default: .value(.consumerSecret),
    help:
      "Which of the app's secrets X signs with: consumer-secret (default; X-Twitter-Webhooks-Signature), or oauth2-client-secret (X-Twitter-Webhooks-Signature-OAuth2, the secret from X_CLIENT_SECRET or the profile's OAuth 2.0 client).",
    ArgumentConversion(
      failure: { option, text in "--\(option) takes consumer-secret or oauth2-client-secret, not \(text)" },
      shown: { $0 == .consumerSecret ? "consumer-secret" : "oauth2-client-secret" }
    ) { ["consumer-secret": .consumerSecret, "oauth2-client-secret": .oauth2ClientSecret][$0] })

  static let from = Option<Date?>.value(
    "from", placeholder: "TIME", help: "replay: the window's start (ISO 8601; X takes it to the minute, UTC).", recorded: .omitted, .time)
  static let to = Option<Date?>.value(
    "to", placeholder: "TIME", help: "replay: the window's end (ISO 8601; X takes it to the minute, UTC).", recorded: .omitted, .time)

  var spec: CommandSpec {
    makeSpec(
      summary: "X's webhooks: receive their events on 127.0.0.1 behind your HTTPS proxy or tunnel, register, list, check, delete, replay.",
      options: [Self.port, Self.output, Self.maxBody, Self.signedWith, Self.from, Self.to],
      positionals: [
        PositionalSpec("action", help: "serve, register, list, check, delete or replay."),
        PositionalSpec("argument", help: "register: URL; check, delete, replay: the webhook's ID.", optional: true),
      ],
      discussion: """
        tweets webhook serve [--port N] [--output FILE] [--db FILE] [--max-body BYTES] [--signed-with SECRET]
        tweets webhook register URL             X sends URL a CRC at once: have the receiver answering
        tweets webhook list [--format F]        the app's webhooks: id, url, valid, created_at
        tweets webhook check ID                 X sends a CRC again and re-enables the webhook if it passes
        tweets webhook delete ID
        tweets webhook replay ID --from TIME --to TIME   X delivers the window's events again
        register, list, check, delete and replay are app-only, as X requires: X_BEARER_TOKEN, or
        one obtained from the app's consumer key and secret.
        X delivers webhooks only to a public https:// URL without a port: put this receiver
        behind your own HTTPS reverse proxy or tunnel, which forwards to http://127.0.0.1:PORT,
        then register that URL (POST /2/webhooks). A GET with crc_token is X's challenge,
        answered with the HMAC-SHA256 of the token under the app's consumer secret. A POST must
        carry X-Twitter-Webhooks-Signature: sha256= and the base64 of the HMAC-SHA256 of its body
        under the same secret (with --signed-with oauth2-client-secret, the OAuth 2.0 client
        secret and X-Twitter-Webhooks-Signature-OAuth2), checked before the body is read:
        without one it is refused with 401, with a wrong one 403, past --max-body 413, and
        nothing is written; each refusal is one line on stderr, never with the body.
        Each event of an accepted POST is one JSON line: received_at, source (account_activity
        or activity), type (tweet_create_events, post.create...), kind, for_user_id, event (its
        JSON as X sent it) and, beside direct messages, context (the body's users and apps
        maps); a body of no known shape is kept whole. With --db the posts and accounts the
        events carry are stored in the archive too. Ctrl-C (or SIGTERM) stops it.
        Example: X_CONSUMER_SECRET=... tweets webhook serve --port 8978 --output events.jsonl
        """)
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let words = arguments.positionals
    guard let action = words.first, ["serve", "register", "list", "check", "delete", "replay"].contains(action) else {
      throw UsageError("tweets webhook serve|register URL|list|check ID|delete ID|replay ID --from TIME --to TIME")
    }
    if action != "serve" { return try await manage(action, Array(words.dropFirst()), arguments, session) }
    guard words.count == 1 else { throw UsageError("tweets webhook serve takes no argument: tweets webhook serve [--port N] [--output FILE]") }
    if try arguments.value(Self.from) != nil || arguments.value(Self.to) != nil { throw UsageError("--from and --to are for tweets webhook replay") }
    let port = try arguments.value(Self.port)
    let maxBody = try arguments.value(Self.maxBody)
    let output = try arguments.value(Self.output)
    let profile = try session.profile()
    let scheme = try arguments.value(Self.signedWith)
    let secret: String
    switch scheme {
    case .consumerSecret:
      let demo = session.sandbox != nil ? session.sandboxType.demoConsumer : nil
      guard let found = session.options.consumerSecret ?? profile?.consumerSecret ?? demo?.secret else {
        throw TweetsFailure(
          """
          No consumer secret for profile "\(session.options.profileName)": X signs webhooks with the \
          app's consumer secret. Give --consumer-secret (or X_CONSUMER_SECRET), or store it with tweets login.
          """, exitCode: .authentication)
      }
      secret = found
    case .oauth2ClientSecret:
      guard let found = session.environment["X_CLIENT_SECRET"] ?? profile?.oauth2?.clientSecret else {
        throw TweetsFailure(
          """
          No OAuth 2.0 client secret for profile "\(session.options.profileName)": give X_CLIENT_SECRET, \
          or store it with tweets login --oauth2 --client-secret.
          """, exitCode: .authentication)
      }
      secret = found
    }
    let terminal = session.terminal
    let sink = try StreamSink(file: output, terminal: terminal)
    defer { sink.close() }
    let archive = try session.options.database.map { try TweetArchive(path: $0.path) }
    defer { archive?.close() }
    let writer = WebhookEventWriter(
      receiver: XWebhookReceiver(secret: secret, scheme: scheme, maxBodyBytes: maxBody), sink: sink, archive: archive,
      command: session.options.commandLine, terminal: terminal)
    var limits = LoopbackHTTPServer.Limits()
    limits.maxBodyBytes = maxBody
    let server: LoopbackHTTPServer
    do {
      server = try LoopbackHTTPServer(
        port: port, limits: limits,
        refused: { writer.log(status: $0.status, reason: $0.reason, peer: $0.peer, method: $0.method) },
        answering: { writer.answer($0) })
    } catch {
      throw TweetsFailure("\(error); choose another --port (0 picks a free one)", exitCode: .failure)
    }
    defer { server.stop() }
    terminal.out("Receiving X webhooks at \(server.baseURL.absoluteString)")
    terminal.err(
      "Forward your HTTPS proxy or tunnel to it and register that public https:// URL with X. Stop it with Ctrl-C.")
    do {
      try await Interruption.cancelling {
        while true { try await Task.sleep(nanoseconds: 3_600_000_000_000) }
      }
    } catch is Interruption.Stopped, is CancellationError {
      // Ctrl-C or SIGTERM: the end the user asked for.
    }
    let counts = writer.counts
    terminal.err(
      "tweets: \(counts.events) event\(counts.events == 1 ? "" : "s") written, \(counts.refused) request\(counts.refused == 1 ? "" : "s") refused.")
    return .success
  }
}
