import DateFormats
import Foundation

/// Stream connections (`x-api/connections/*.mdx`): the app's filtered-stream connections, and
/// ending them, app-only as X serves them. Ending the held connection is the cure for the 429
/// `TooManyConnections` a stale one causes.
extension SandboxRoute {
  static let connections: [SandboxRoute] = [
    SandboxRoute(
      method: "GET", pattern: ["2", "connections"], name: "v2_connections", limit: 300, appOnly: true,
      allowed: ["status", "endpoints", "max_results", "pagination_token", "connection.fields"]
    ) { state, ctx in state.v2Connections(ctx) },
    SandboxRoute(method: "DELETE", pattern: ["2", "connections", "all"], name: "v2_connections_delete_all", limit: 50, appOnly: true) {
      $0.v2TerminateConnections($1, uuids: nil)
    },
    SandboxRoute(method: "DELETE", pattern: ["2", "connections", "*"], name: "v2_connections_delete_endpoint", limit: 50, appOnly: true) {
      $0.v2TerminateEndpoint($1)
    },
    SandboxRoute(method: "DELETE", pattern: ["2", "connections"], name: "v2_connections_delete", limit: 50, appOnly: true) {
      $0.v2TerminateByUUIDs($1)
    },
  ]
}

// MARK: - Handlers (lock held)

extension SandboxState {
  /// The connection fields X names (`ConnectionFieldsParameter`).
  static let connectionFields: Set = ["client_ip", "connected_at", "disconnect_reason", "disconnected_at", "endpoint_name", "id"]

  /// `GET /2/connections[?status=active|inactive|all][&connection.fields=…]`: the filtered
  /// stream's connections, newest first; `id` always, the other fields when asked for.
  /// Refused attempts (an answer other than a stream) were never connections and are not listed.
  func v2Connections(_ ctx: RouteContext) -> SandboxResponse {
    let status = ctx.query["status"] ?? "active"
    guard ["active", "inactive", "all"].contains(status) else {
      return .v2(
        400, XBodies.invalidRequest("status", [status], "The `status` query parameter value [\(status)] is not one of [active, inactive, all]"))
    }
    let fields = splitList(ctx.query["connection.fields"])
    if let bad = fields.first(where: { !Self.connectionFields.contains($0) }) {
      return .v2(
        400,
        XBodies.invalidRequest(
          "connection.fields", [bad],
          "The `connection.fields` query parameter value [\(bad)] is not one of [\(Self.connectionFields.sorted().joined(separator: ","))]"))
    }
    let endpoints = splitList(ctx.query["endpoints"])
    let count: Int
    do throws(SandboxRefusal) { count = try pageSize(ctx.query, range: 1...100, defaultCount: 10) } catch { return error.response }
    let offset = ctx.query["pagination_token"].flatMap { Int($0) } ?? 0
    let all = stream.connections.reversed().filter { connection in
      connection.status == 200 && (status == "all" || (status == "active") == connection.held)
        && (endpoints.isEmpty || endpoints.contains("filtered_stream"))
    }
    let page = Array(all.dropFirst(offset).prefix(count))
    var meta: [(String, JSON)] = [("result_count", .int(page.count))]
    if offset + count < all.count { meta.append(("next_token", .string(String(offset + count)))) }
    var out: [(String, JSON)] = []
    if !page.isEmpty { out.append(("data", .array(page.map { Self.connectionJSON($0, fields: Set(fields)) }))) }
    out.append(("meta", .object(meta)))
    return .v2(200, .object(out))
  }

  /// One connection as X's `Connection` object.
  static func connectionJSON(_ connection: SandboxStreamConnection, fields: Set<String>) -> JSON {
    func time(_ seconds: Double) -> JSON { .string(RFC3339.millisecondString(from: Date(timeIntervalSince1970: seconds))) }
    var pairs: [(String, JSON)] = [("id", .string(connection.uuid))]
    if fields.contains("endpoint_name") { pairs.append(("endpoint_name", .string("filtered_stream"))) }
    if fields.contains("client_ip") { pairs.append(("client_ip", .string("127.0.0.1"))) }
    if fields.contains("connected_at") { pairs.append(("connected_at", time(connection.opened))) }
    if fields.contains("disconnected_at"), let closed = connection.closed { pairs.append(("disconnected_at", time(closed))) }
    if fields.contains("disconnect_reason"), let reason = connection.reason { pairs.append(("disconnect_reason", .string(reason))) }
    return .object(pairs)
  }

  /// `DELETE /2/connections/all` (every held connection) and the others: X's
  /// `successful_kills`, `failed_kills` and `results`.
  mutating func v2TerminateConnections(_ ctx: RouteContext, uuids: Set<String>?) -> SandboxResponse {
    let ended = stream.terminate(uuids, at: Date().timeIntervalSince1970)
    let failed = (uuids ?? []).subtracting(ended).sorted()
    let results: [JSON] =
      ended.map { .object([("uuid", .string($0)), ("success", .bool(true))]) }
      + failed.map { .object([("uuid", .string($0)), ("success", .bool(false)), ("error_message", .string("Connection not found"))]) }
    return .v2(
      200,
      .object([("data", .object([("successful_kills", .int(ended.count)), ("failed_kills", .int(failed.count)), ("results", .array(results))]))]))
  }

  /// `DELETE /2/connections/:endpoint_id`: the sandbox serves `filtered_stream` only, so the
  /// other endpoints X names end nothing.
  mutating func v2TerminateEndpoint(_ ctx: RouteContext) -> SandboxResponse {
    let endpoint = ctx.captures.first ?? ""
    guard SandboxStreamState.endpointNames.contains(endpoint) else {
      return .v2(
        400,
        XBodies.invalidRequest(
          "endpoint_id", [endpoint], "The `endpoint_id` path parameter value [\(endpoint)] is not one of the streaming endpoints"))
    }
    return v2TerminateConnections(ctx, uuids: endpoint == "filtered_stream" ? nil : [])
  }

  /// `DELETE /2/connections` with `{"uuids": [...]}` (1 to 100).
  mutating func v2TerminateByUUIDs(_ ctx: RouteContext) -> SandboxResponse {
    guard mediaType(ctx.contentType) == "application/json" else { return .v2(400, XBodies.jsonRequired) }
    guard let body = ctx.body, let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
      let uuids = object["uuids"] as? [String], (1...100).contains(uuids.count)
    else { return .v2(400, XBodies.invalidBody("$.uuids: is missing, or has not 1 to 100 items")) }
    return v2TerminateConnections(ctx, uuids: Set(uuids))
  }
}

extension SandboxStreamState {
  /// The streaming endpoints X's connections endpoints name (`endpoint_id`).
  static let endpointNames: Set = [
    "filtered_stream", "sample_stream", "sample10_stream", "firehose_stream", "tweets_compliance_stream", "users_compliance_stream",
    "tweet_label_stream", "firehose_stream_lang_en", "firehose_stream_lang_ja", "firehose_stream_lang_ko", "firehose_stream_lang_pt",
    "likes_firehose_stream", "likes_sample10_stream", "likes_compliance_stream",
  ]
}
