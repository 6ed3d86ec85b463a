import Foundation
import NetworkClient

/// A transport that passes every request to another one and records each exchange, redacted,
/// for a ``Cassette`` that ``ReplayTransport`` answers from later.
///
/// ```swift
/// let recorder = RecordingTransport(URLSessionTransport())
/// let client = NetworkClient(baseURL: api, behavior: signer, transport: recorder)
/// _ = try await client.send(Request<Data>(path: "2/users/me"))
/// try recorder.save(to: URL(fileURLWithPath: "Tests/Recordings/me.json"))
/// ```
///
/// Secrets are redacted as each exchange is recorded (see ``Cassette``): the cassette in memory
/// never holds them either.
public final class RecordingTransport: HTTPTransport, Sendable {
  private let inner: any HTTPTransport
  private let recorded = Locked<[Cassette.Interaction]>([])

  /// Records what `inner` exchanges.
  public init(_ inner: any HTTPTransport) {
    self.inner = inner
  }

  /// Sends through the inner transport and records the exchange (a failure without a response
  /// is not recorded).
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let response = try await inner.send(request)
    let interaction = Cassette.interaction(request, response)
    recorded.withLock { $0.append(interaction) }
    return response
  }

  /// The exchanges recorded so far.
  public var cassette: Cassette { recorded.withLock { Cassette(interactions: $0) } }

  /// Writes the cassette as JSON to `file`.
  public func save(to file: URL) throws {
    try cassette.encoded().write(to: file, options: .atomic)
  }
}
