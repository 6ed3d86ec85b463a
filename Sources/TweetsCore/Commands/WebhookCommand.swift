import CommandLineSupport
import DateFormats
import Foundation
import Loopback
import NetworkClient
import XAPI
import XArchive

/// `tweets webhook serve`: a receiver of X's webhooks on 127.0.0.1, for the user's own HTTPS
/// proxy or tunnel to forward to (X calls only public HTTPS URLs without a port). It answers
/// X's challenge-response checks, verifies each event POST's signature with the app's consumer
/// secret before reading it (``XWebhookReceiver``), and writes every event as one JSON line;
/// with `--db`, the posts and accounts the events carry go to the archive as well. What is not
/// signed is refused and said on stderr, without its body.
struct WebhookCommand: TweetsCommand {
  let name = "webhook"
  /// The consumer secret (`--consumer-secret`, `X_CONSUMER_SECRET` or the profile's) signs
  /// X's deliveries; `--db` archives their posts and users.
  let shared: SharedOptions = [.session, .consumer, .database]
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

  var spec: CommandSpec {
    makeSpec(
      summary: "Receive X's webhook events on 127.0.0.1 behind your HTTPS proxy or tunnel (tweets webhook serve).",
      options: [Self.port, Self.output, Self.maxBody, Self.signedWith],
      positionals: [PositionalSpec("action", help: "serve")],
      discussion: """
        tweets webhook serve [--port N] [--output FILE] [--db FILE] [--max-body BYTES] [--signed-with SECRET]
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
    guard arguments.positionals == ["serve"] else {
      throw UsageError("tweets webhook has one action, serve: tweets webhook serve [--port N] [--output FILE]")
    }
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

/// Answers the requests of `tweets webhook serve` (on the connections' threads) and writes the
/// events of each verified delivery, one line each, in the order they arrived.
final class WebhookEventWriter: Sendable {
  private let receiver: XWebhookReceiver
  private let sink: StreamSink
  private let terminal: Terminal
  /// The archive and its fetch, begun at the first event; the counts. Held while a delivery is
  /// written, so that the archive (no `Sendable`) is used by one thread at a time.
  private let state: Locked<State>
  private let command: [String]

  private struct State {
    let archive: TweetArchive?
    var fetch: ArchiveFetch?
    var events = 0
    var refused = 0
  }

  init(receiver: XWebhookReceiver, sink: StreamSink, archive: TweetArchive?, command: [String], terminal: Terminal) {
    self.receiver = receiver
    self.sink = sink
    self.command = command
    self.terminal = terminal
    state = Locked(State(archive: archive))
  }

  /// The events written and the requests refused so far.
  var counts: (events: Int, refused: Int) { state.withLock { ($0.events, $0.refused) } }

  func answer(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
    let answer = receiver.handle(.init(method: request.method, target: request.target, headers: request.headers, body: request.body))
    let response = LoopbackHTTPServer.Response(
      status: answer.response.status, headers: answer.response.headers.map { ($0.name, $0.value) }, body: answer.response.body)
    switch answer.outcome {
    case .challenge:
      return response
    case .refused(let why):
      log(status: why.status, reason: why.description, peer: request.peerAddress, method: request.method)
      return response
    case .delivery(let delivery):
      do {
        try write(delivery)
      } catch {
        // X delivers again what it was not told 200 for.
        terminal.err(TerminalText.visible("tweets: a delivery could not be stored: \(error)"))
        return LoopbackHTTPServer.Response(status: 500, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Data("not stored\n".utf8))
      }
      return response
    }
  }

  /// One line on stderr for a refused request: status, reason, peer; never the body.
  func log(status: Int, reason: String, peer: String, method: String?) {
    state.withLock { $0.refused += 1 }
    let what = method.map { String($0.prefix(16)) + " " } ?? ""
    terminal.err(TerminalText.visible("tweets: refused \(what)from \(peer) with \(status): \(reason)"))
  }

  private func write(_ delivery: XWebhookDelivery) throws {
    let now = RFC3339.string(from: Date())
    try state.withLock { state in
      for event in delivery.events {
        sink.write(Self.line(event, receivedAt: now))
        try sink.check()
        state.events += 1
      }
      guard let archive = state.archive else { return }
      var fetch = try state.fetch ?? archive.beginFetch(command: command, resume: false)
      for event in delivery.events {
        for tweet in event.tweets {
          try archive.store(streamed: tweet, body: Self.rawTweets(event), users: event.users, matching: [], in: &fetch)
        }
        if event.tweets.isEmpty, !event.users.isEmpty { try archive.store(users: event.users, in: &fetch, complete: false) }
      }
      state.fetch = fetch
    }
  }

  /// The event's posts as the archive finds raw objects: the Activity API's payload under
  /// `data`, an Account Activity item (a v1.1 post) as it is.
  private static func rawTweets(_ event: XWebhookEvent) -> Data {
    guard event.source == .activity, let object = try? JSONSerialization.jsonObject(with: event.json) as? [String: Any],
      let payload = object["payload"], let data = try? JSONSerialization.data(withJSONObject: ["data": payload])
    else { return event.json }
    return data
  }

  /// The event's line: its facts and its JSON as X sent it (a body that is not JSON as base64).
  static func line(_ event: XWebhookEvent, receivedAt: String) -> String {
    var object: [String: Any] = [
      "received_at": receivedAt, "source": event.source.rawValue, "type": event.type, "kind": event.kind.rawValue,
    ]
    if let user = event.forUserID { object["for_user_id"] = user }
    if let context = event.context, let json = try? JSONSerialization.jsonObject(with: context) { object["context"] = json }
    if let json = try? JSONSerialization.jsonObject(with: event.json, options: [.fragmentsAllowed]) {
      object["event"] = json
    } else {
      object["body_base64"] = event.json.base64EncodedString()
    }
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}
