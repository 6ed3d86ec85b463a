import CommandLineSupport
import DateFormats
import Foundation
import Loopback
import NetworkClient
import XAPI
import XArchive

/// Answers the requests of `tweets webhook serve` (on the connections' threads) and writes the
/// events of each verified delivery, one line each, in the order they arrived; `tweets activity
/// stream` writes its events through it too, with no receiver.
final class WebhookEventWriter: Sendable {
  private let receiver: XWebhookReceiver?
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

  init(receiver: XWebhookReceiver?, sink: StreamSink, archive: TweetArchive?, command: [String], terminal: Terminal) {
    self.receiver = receiver
    self.sink = sink
    self.command = command
    self.terminal = terminal
    state = Locked(State(archive: archive))
  }

  /// The events written and the requests refused so far.
  var counts: (events: Int, refused: Int) { state.withLock { ($0.events, $0.refused) } }

  func answer(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
    guard let receiver else {
      return LoopbackHTTPServer.Response(status: 500, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Data("no receiver\n".utf8))
    }
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
        let now = RFC3339.string(from: Date())
        try write(delivery.events) { Self.line($0, receivedAt: now) }
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

  /// Writes `events`, each as `line` makes it, and with an archive stores their posts and users.
  func write(_ events: [XWebhookEvent], line: (XWebhookEvent) -> String) throws {
    try state.withLock { state in
      for event in events {
        sink.write(line(event))
        try sink.check()
        state.events += 1
      }
      guard let archive = state.archive else { return }
      var fetch = try state.fetch ?? archive.beginFetch(command: command, resume: false)
      for event in events {
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
