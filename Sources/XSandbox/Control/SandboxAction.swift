import Foundation
import Loopback

/// One scripted answer for the next request whose path starts with a prefix: how tests inject
/// faults. A redirect is answered at the edge, before authentication (a moved endpoint, an old
/// host forwarding to a new one); every other action replaces the answer of an authenticated
/// request.
///
/// Written as JSON (`POST /_control/script`), one object per action:
/// `{"status": 429, "reset_in": s}` (`"bare": true`: no `x-rate-limit-*`),
/// `{"status": 503, "body"?: str, "content_type"?: str, "headers"?: {}}`, `{"delay": s}` (alone:
/// then the normal answer), `{"truncate": true}` (half the body, then the end of the stream),
/// `{"invalid_json": true}`, `{"html": true}` (a proxy's 502 page), `{"reset_connection": true}`,
/// `{"reset_mid_body": true}` (the head and half the body, then a reset), and
/// `{"redirect": url-or-path, "status"?: 301|302|303|307|308, "keep_query"?: bool}`.
struct SandboxAction: Sendable {
  var status: Int?
  /// A scripted 429's window end, in seconds from now (X's 15 minutes by default).
  var resetIn: Double?
  /// A 429 without `x-rate-limit-*` headers.
  var bare = false
  var body: String?
  var contentType: String?
  var headers: [(String, String)] = []
  var delay: Double?
  var truncate = false
  var invalidJSON = false
  var html = false
  var resetConnection = false
  var resetMidBody = false
  var redirect: String?
  var keepQuery = false

  /// What a control request sent that is not an action.
  struct Invalid: Error, CustomStringConvertible {
    let description: String
  }

  init(json: [String: Any]) throws(Invalid) {
    func number(_ name: String) throws(Invalid) -> Double? {
      guard let value = json[name] else { return nil }
      guard let number = value as? Double ?? (value as? Int).map(Double.init) else {
        throw Invalid(description: "\(name) must be a number, not \(value)")
      }
      return number
    }
    func flag(_ name: String) -> Bool { json[name] as? Bool ?? false }
    status = try number("status").map { Int($0) }
    resetIn = try number("reset_in")
    delay = try number("delay")
    bare = flag("bare")
    body = json["body"].map { "\($0)" }
    contentType = json["content_type"] as? String
    headers = ((json["headers"] as? [String: Any]) ?? [:]).map { ($0.key, "\($0.value)") }.sorted { $0.0 < $1.0 }
    truncate = flag("truncate")
    invalidJSON = flag("invalid_json")
    html = flag("html")
    resetConnection = flag("reset_connection")
    resetMidBody = flag("reset_mid_body")
    redirect = json["redirect"] as? String
    keepQuery = flag("keep_query")
    let known: Set = [
      "status", "reset_in", "bare", "body", "content_type", "headers", "delay", "truncate", "invalid_json", "html",
      "reset_connection", "reset_mid_body", "redirect", "keep_query",
    ]
    if let unknown = json.keys.sorted().first(where: { !known.contains($0) }) {
      throw Invalid(description: "unknown action field \(unknown); known: \(known.sorted().joined(separator: ", "))")
    }
  }
}

/// How the HTTP layer delivers an answer: whole, or broken as a scripted fault asks.
typealias SandboxDelivery = LoopbackHTTPServer.Response.Delivery
