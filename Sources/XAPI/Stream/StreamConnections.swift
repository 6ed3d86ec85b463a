import DateFormats
import Foundation
import NetworkClient

/// One of the app's streaming connections, as X's connections endpoints list it
/// (`GET /2/connections`, X's `Connection` object).
///
/// ```swift
/// for connection in try await app.v2.streamConnections() { print(connection.id, connection.endpointName ?? "") }
/// ```
public struct StreamConnection: Sendable, Hashable, Decodable {
  /// X's id of the connection (a UUID): what ``XClient/V2/terminateStreamConnections(uuids:)`` takes.
  public let id: String
  /// The stream it is connected to, in X's words (`filtered_stream`).
  public let endpointName: String?
  /// Where it was made from.
  public let clientIP: String?
  /// When it was made.
  public let connectedAt: Date?
  /// When it ended; `nil` for an active one.
  public let disconnectedAt: Date?
  /// Why it ended, in X's words.
  public let disconnectReason: String?

  /// A connection from its parts, for tests and emulators.
  public init(
    id: String, endpointName: String? = nil, clientIP: String? = nil, connectedAt: Date? = nil, disconnectedAt: Date? = nil,
    disconnectReason: String? = nil
  ) {
    self.id = id
    self.endpointName = endpointName
    self.clientIP = clientIP
    self.connectedAt = connectedAt
    self.disconnectedAt = disconnectedAt
    self.disconnectReason = disconnectReason
  }

  enum CodingKeys: String, CodingKey {
    case id
    case endpointName = "endpoint_name"
    case clientIP = "client_ip"
    case connectedAt = "connected_at"
    case disconnectedAt = "disconnected_at"
    case disconnectReason = "disconnect_reason"
  }

  /// Decodes X's object; its times are RFC 3339 strings.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    endpointName = try container.decodeIfPresent(String.self, forKey: .endpointName)
    clientIP = try container.decodeIfPresent(String.self, forKey: .clientIP)
    connectedAt = try container.decodeIfPresent(String.self, forKey: .connectedAt).flatMap(RFC3339.date(from:))
    disconnectedAt = try container.decodeIfPresent(String.self, forKey: .disconnectedAt).flatMap(RFC3339.date(from:))
    disconnectReason = try container.decodeIfPresent(String.self, forKey: .disconnectReason)
  }

  /// Which connections ``XClient/V2/streamConnections(status:)`` lists (X's `status`).
  public enum Status: String, Sendable, CaseIterable {
    /// The connections open now (X's default).
    case active
    /// The connections that ended.
    case inactive
    /// Both.
    case all
  }
}

/// What ending connections did: X's `successful_kills`, `failed_kills`, and each connection's result.
///
/// ```swift
/// let ended = try await app.v2.terminateAllStreamConnections()
/// print("ended \(ended.successfulKills), failed \(ended.failedKills)")
/// ```
public struct StreamConnectionKills: Sendable, Hashable, Decodable {
  /// One connection's result.
  public struct Result: Sendable, Hashable, Decodable {
    /// The connection's id.
    public let uuid: String
    /// Whether it was ended.
    public let success: Bool
    /// Why not, in X's words.
    public let errorMessage: String?

    enum CodingKeys: String, CodingKey {
      case uuid, success
      case errorMessage = "error_message"
    }
  }

  /// How many connections were ended.
  public let successfulKills: Int
  /// How many could not be.
  public let failedKills: Int
  /// Each connection's result, when X lists them.
  public let results: [Result]

  enum CodingKeys: String, CodingKey {
    case successfulKills = "successful_kills"
    case failedKills = "failed_kills"
    case results
  }

  /// Decodes X's object (`results` may be absent).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    successfulKills = try container.decode(Int.self, forKey: .successfulKills)
    failedKills = try container.decode(Int.self, forKey: .failedKills)
    results = try container.decodeIfPresent([Result].self, forKey: .results) ?? []
  }
}

/// The app's streaming connections (`x-api/connections/*.mdx`), app-only: list them, and end
/// them. X allows one filtered-stream connection per app; one left by a crashed collector makes
/// every new one fail with 429 `TooManyConnections` until X times it out, and ending it lets a
/// new one connect at once.
///
/// ```swift
/// let app = XClient(authentication: .bearer(token))
/// let stale = try await app.v2.streamConnections()
/// if !stale.isEmpty { _ = try await app.v2.terminateAllStreamConnections() }
/// ```
extension XClient.V2 {
  /// The fields asked of each connection: all X has.
  static let connectionFields = "client_ip,connected_at,disconnect_reason,disconnected_at,endpoint_name,id"

  /// `GET /2/connections`: the app's connections with every field, newest first, all pages.
  public func streamConnections(status: StreamConnection.Status = .active) async throws(XError) -> [StreamConnection] {
    var connections: [StreamConnection] = []
    var token: String?
    repeat {
      var query: [QueryItem] = [("status", status.rawValue), ("max_results", "100"), ("connection.fields", Self.connectionFields)]
      if let token { query.append(("pagination_token", token)) }
      let response = try await client.send(Request<V2Envelope<[StreamConnection]>>(path: XEndpoint.getConnectionHistory.filled(), query: query))
      connections += response.value.data ?? []
      token = response.value.meta?.nextToken
    } while token != nil
    return connections
  }

  /// `DELETE /2/connections/all`: ends every active connection of the app.
  public func terminateAllStreamConnections() async throws(XError) -> StreamConnectionKills {
    try await kills(Request(method: XEndpoint.deleteAllConnections.method, path: XEndpoint.deleteAllConnections.filled()))
  }

  /// `DELETE /2/connections/:endpoint_id`: ends the connections to one stream (X's endpoint
  /// names, such as `filtered_stream`).
  public func terminateStreamConnections(endpoint: String) async throws(XError) -> StreamConnectionKills {
    try await kills(Request(method: XEndpoint.deleteConnectionsByEndpointID.method, path: XEndpoint.deleteConnectionsByEndpointID.filled(endpoint)))
  }

  /// `DELETE /2/connections` with `{"uuids": [...]}` (1 to 100): ends these connections.
  public func terminateStreamConnections(uuids: [String]) async throws(XError) -> StreamConnectionKills {
    struct Body: Encodable, Sendable { let uuids: [String] }
    return try await kills(
      Request(method: XEndpoint.deleteConnectionsByUuids.method, path: XEndpoint.deleteConnectionsByUuids.filled(), body: .json(Body(uuids: uuids))))
  }

  private func kills(_ request: Request<V2Envelope<StreamConnectionKills>>) async throws(XError) -> StreamConnectionKills {
    let response = try await client.send(request)
    guard let kills = response.value.data else {
      throw .notFound(message: response.value.errors?.first?.description ?? "X answered without a result")
    }
    return kills
  }
}
