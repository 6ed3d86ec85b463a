import Foundation
import Loopback

/// A filtered-stream rule the sandbox keeps: X's id (a 19-digit number), the query, the tag.
struct SandboxStreamRule: Sendable {
  let id: String
  let value: String
  let tag: String?
}

/// One attempt to connect to `GET /2/tweets/search/stream`, as the control API reports it: when
/// it came and ended (Unix seconds, real time: the tests measure reconnect waits with them), how
/// it was answered (0: reset before any answer), why it ended, and how many posts it carried.
struct SandboxStreamConnection: Sendable {
  let serial: Int
  /// Its id in X's connections endpoints (`GET /2/connections`, `DELETE /2/connections`).
  let uuid: String
  let opened: Double
  var status: Int?
  var closed: Double?
  var reason: String?
  var delivered = 0
  /// When a scripted stall began, if one did.
  var stalled: Double?
  /// A connection the sandbox holds with no client behind it: what a crashed collector leaves
  /// when X has not noticed (from `POST /_control/stream {"stale": true}`).
  var stale = false

  /// Whether X still counts it against the one-connection limit.
  var held: Bool { status == 200 && closed == nil }
}

/// A fault for the connection being served, from `POST /_control/stream`: it strikes the
/// live connection once that has delivered `after` posts.
struct SandboxStreamFault: Sendable {
  enum Kind: Sendable {
    /// A TCP reset: the connection drops.
    case disconnect
    /// Nothing at all (no post, no keep-alive) for this many seconds, then the stream goes on.
    case stall(Double)
  }
  let kind: Kind
  let after: Int
}

/// What the producer of a connection does next; see ``SandboxState/streamStep(serial:fields:)``.
enum SandboxStreamStep: Sendable {
  /// The connection is no longer the live one (terminated through `DELETE /2/connections`,
  /// or found gone): end it.
  case superseded
  case fault(SandboxStreamFault.Kind)
  /// A post matching some rules: one line of the stream.
  case line(Data)
  /// Nothing this tick.
  case idle
  /// Billing refuses more posts (credits spent, the post cap reached): the connection ends.
  case refused(SandboxBilling.Refusal)
}

/// The filtered stream's side of the sandbox: rules, the connection log, faults waiting for the
/// live connection, and the firehose's position in the data.
struct SandboxStreamState: Sendable {
  /// X's limits on pay-per-use access (`x-api/posts/filtered-stream/introduction.mdx`).
  static let ruleCap = 1000
  static let ruleLength = 1024

  var rules: [SandboxStreamRule] = []
  var nextRule: UInt64 = 0
  var connections: [SandboxStreamConnection] = []
  /// The connection X counts against the app's one connection; while it is held, a new one is
  /// refused with 429 `TooManyConnections`, as X does.
  var live: Int?
  /// The writers of the connections being served, to find out whether a client is still there.
  var writers: [Int: any StreamingBodyWriter] = [:]
  var faults: [SandboxStreamFault] = []
  /// How far the firehose has gone through the data (oldest first, then round again).
  var position = 0

  /// Records an attempt to connect; returns its serial.
  mutating func attempt(at time: Double) -> Int {
    let serial = connections.count
    connections.append(SandboxStreamConnection(serial: serial, uuid: UUID().uuidString.lowercased(), opened: time))
    return serial
  }

  /// Holds a stale connection (no client behind it) as the live one, as a crashed collector
  /// leaves it; returns its serial.
  mutating func holdStale(at time: Double) -> Int {
    let serial = attempt(at: time)
    connections[serial].status = 200
    connections[serial].stale = true
    live = serial
    return serial
  }

  /// Ends the held connections whose uuid is in `uuids` (every held one when `nil`), as
  /// `DELETE /2/connections[/all]` does; returns the uuids ended.
  mutating func terminate(_ uuids: Set<String>?, at time: Double) -> [String] {
    var ended: [String] = []
    for index in connections.indices where connections[index].held && (uuids?.contains(connections[index].uuid) ?? true) {
      closed(index, reason: "terminated (DELETE /2/connections)", at: time)
      ended.append(connections[index].uuid)
    }
    return ended
  }

  /// Records how attempt `serial` was answered; an answer other than a stream ends it at once.
  /// A stream while another connection is held (one that came in at the same moment) is refused
  /// instead, as 429: returns whether it was served.
  @discardableResult
  mutating func answered(_ serial: Int, status: Int, streaming: Bool, at time: Double) -> Bool {
    if streaming, live != nil {
      connections[serial].status = 429
      connections[serial].closed = time
      connections[serial].reason = "refused"
      return false
    }
    connections[serial].status = status
    if streaming {
      live = serial
    } else {
      connections[serial].closed = time
      connections[serial].reason = status == 0 ? "reset" : "refused"
    }
    return true
  }

  /// Records the end of connection `serial`.
  mutating func closed(_ serial: Int, reason: String, at time: Double) {
    guard connections[serial].closed == nil else { return }
    connections[serial].closed = time
    connections[serial].reason = reason
    if live == serial { live = nil }
    writers[serial] = nil
  }

  /// The log as the control API reports it.
  var log: [[String: Any]] {
    connections.map { connection in
      [
        "serial": connection.serial, "opened": connection.opened, "status": connection.status.map { $0 as Any } ?? NSNull(),
        "closed": connection.closed.map { $0 as Any } ?? NSNull(), "reason": connection.reason.map { $0 as Any } ?? NSNull(),
        "delivered": connection.delivered, "stalled": connection.stalled.map { $0 as Any } ?? NSNull(), "uuid": connection.uuid,
        "stale": connection.stale,
      ]
    }
  }
}
