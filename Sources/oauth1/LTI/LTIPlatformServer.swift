import CommandLineSupport
import Foundation
import LTI
import Loopback
import NetworkClient
import OAuth1

/// `oauth1 lti serve`: a loopback learning platform to develop a tool against. Its page launches
/// the tool as a chosen user and role (a signed, auto-submitting form), its outcome service
/// verifies every grade with `LTIOutcomesReceiver` and records it, and its Content-Item
/// endpoint verifies a tool's selection.
final class LTIPlatformServer: Sendable {
  /// One grade received.
  struct Grade: Codable, Sendable {
    let sourcedid: String
    let score: Double?
    let resultData: String?
    let operation: String
    /// Whether this platform issued the sourcedid in one of its launches.
    let issued: Bool
    let receivedAt: String
  }

  /// How many grades, selections and issued sourcedids are kept at most (the oldest go first;
  /// the issued ones all at once), so that a client cannot fill the memory.
  static let kept = 10_000

  private let credentials: Credentials
  private let toolURL: String?
  private let method: OAuthSignatureMethod
  private let receiver: LTIOutcomesReceiver
  private let selectionVerifier: OAuthVerifier
  private let issued = Locked<Set<String>>([])
  private let grades = Locked<[Grade]>([])
  private let selections = Locked<[String]>([])
  private let port = Locked<UInt16>(0)

  init(credentials: Credentials, toolURL: String?, method: OAuthSignatureMethod) {
    self.credentials = credentials
    self.toolURL = toolURL
    self.method = method
    receiver = LTIOutcomesReceiver(secrets: [credentials.key: credentials.secret])
    selectionVerifier = OAuthVerifier(
      credentials: InMemoryCredentialLookup(consumers: [credentials.key: OAuthConsumer(secret: credentials.secret)]),
      options: LTILaunchVerifier.defaultOptions)
  }

  static func run(_ parsed: ParsedArguments, credentials: Credentials) async throws -> Int32 {
    let platform = LTIPlatformServer(credentials: credentials, toolURL: parsed[LTICommand.tool], method: try LTICommand.signatureMethod(parsed))
    let server: LoopbackHTTPServer
    do {
      server = try LoopbackHTTPServer(port: try parsed.value(ServeCommand.port)) { request in await platform.respond(to: request) }
    } catch {
      throw InputFiles.Failure(description: "\(error); choose another --port (0 picks a free one)")
    }
    platform.port.withLock { $0 = server.port }
    let base = server.baseURL.absoluteString
    Output.stdout("Serving an LTI 1.1 platform at \(base)\n")
    Output.stderr(
      """
      Launch page:        GET  \(base)/
      Outcome service:    POST \(base)/outcomes   (grades: GET \(base)/grades)
      Content-Item return: POST \(base)/content-item
      Stop it with Ctrl-C.
      """)
    try await LTIServing.hold(server, untilStdinCloses: parsed[ServeCommand.untilStdinCloses])
  }

  func respond(to request: LoopbackHTTPServer.Request) async -> LoopbackHTTPServer.Response {
    let path = request.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.target
    let query = request.target.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
    switch (request.method, path) {
    case ("GET", "/"): return page()
    case ("GET", "/launch"): return launch(LTIServing.fields(query))
    case ("POST", "/outcomes"): return await outcome(request)
    case ("GET", "/grades"): return LTIServing.json(200, grades.withLock { $0 })
    case ("POST", "/content-item"): return await contentItem(request)
    case ("GET", "/content-items"): return LTIServing.json(200, selections.withLock { $0 })
    default: return LoopbackProvider.json(404, ["error": "no such endpoint: see GET /"])
    }
  }

  private var base: String { "http://127.0.0.1:\(port.withLock { $0 })" }

  private func page() -> LoopbackHTTPServer.Response {
    let tool = toolURL.map { LTIMarkup.escape($0) } ?? "(none: start with --tool URL)"
    let html = """
      <!DOCTYPE html>
      <html><head><meta charset="utf-8"><title>oauth1 lti serve</title></head><body>
      <h1>Loopback LMS</h1><p>Tool: \(tool)</p>
      <form method="get" action="/launch">
      <label>user_id <input name="user_id" value="student-1"></label>
      <label>roles <select name="roles"><option>Learner</option><option>Instructor</option>
      <option>urn:lti:role:ims/lis/TeachingAssistant</option><option>urn:lti:instrole:ims/lis/Administrator</option></select></label>
      <label>resource_link_id <input name="resource_link_id" value="link-1"></label>
      <label><input type="checkbox" name="content_item" value="1"> Content-Item selection request</label>
      <button type="submit">Launch</button></form>
      <p><a href="/grades">Grades (JSON)</a> · <a href="/content-items">Content items (JSON)</a></p>
      </body></html>

      """
    return .init(status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: Data(html.utf8))
  }

  /// A signed launch of the tool as the user and role asked for: the page posts itself.
  private func launch(_ fields: [String: String]) -> LoopbackHTTPServer.Response {
    guard let toolURL else { return LoopbackProvider.json(400, ["error": "no tool to launch: start oauth1 lti serve with --tool URL"]) }
    let user = fields["user_id"].flatMap { $0.isEmpty ? nil : $0 } ?? "student-1"
    let link = fields["resource_link_id"].flatMap { $0.isEmpty ? nil : $0 } ?? "link-1"
    var launch = LTILaunchParameters(resourceLinkID: link)
    launch.userID = user
    launch.roles = [fields["roles"].flatMap { $0.isEmpty ? nil : $0 } ?? "Learner"]
    launch.contextID = "course-1"
    let sourcedID = "\(link):\(user)"
    issued.withLock { issued in
      if issued.count >= Self.kept { issued.removeAll() }
      issued.insert(sourcedID)
    }
    launch.outcome = (url: base + "/outcomes", sourcedID: sourcedID)
    launch.returnURL = base + "/"
    launch.extra = [
      (name: "context_label", value: "LOOP101"), (name: "tool_consumer_instance_guid", value: "oauth1-lti-serve"),
      (name: "tool_consumer_info_product_family_code", value: "oauth1"), (name: "ext_outcome_data_values_accepted", value: "text,url"),
    ]
    if fields["content_item"] == "1" {
      launch.messageType = .contentItemSelectionRequest
      launch.extra.append((name: "content_item_return_url", value: base + "/content-item"))
      launch.extra.append((name: "accept_media_types", value: "application/vnd.ims.lti.v1.ltilink"))
      launch.extra.append((name: "accept_presentation_document_targets", value: "iframe,window"))
    }
    do {
      let form = try LTISignedForm.sign(url: toolURL, parameters: launch.parameters, consumer: credentials, signatureMethod: method)
      return .init(status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")], body: Data(form.html.utf8))
    } catch {
      return LoopbackProvider.json(error.httpStatus, ["error": error.description])
    }
  }

  private func outcome(_ request: LoopbackHTTPServer.Request) async -> LoopbackHTTPServer.Response {
    let url = LTIServing.url(of: request, port: port.withLock { $0 })
    let (status, xml) = await receiver.answer(method: request.method, url: url, body: request.body, headers: request.headers) { received in
      record(received)
    }
    return .init(status: status, headers: [("Content-Type", "application/xml")], body: xml)
  }

  private func record(_ received: LTIOutcomesReceiver.Received) -> LTIOutcomeResponse {
    let request = received.request
    let wasIssued = issued.withLock { $0.contains(request.sourcedID) }
    var resultData: String?
    if case .replaceResult(_, let data?, _, _) = request.operation {
      switch data {
      case .text(let text): resultData = text
      case .url(let url), .ltiLaunchURL(let url): resultData = url
      }
    }
    let grade = Grade(
      sourcedid: request.sourcedID, score: received.score, resultData: resultData, operation: request.operation.name, issued: wasIssued,
      receivedAt: ISO8601DateFormatter().string(from: Date()))
    switch request.operation {
    case .readResult:
      let last = grades.withLock { $0.last { $0.sourcedid == request.sourcedID && $0.operation != "readResult" } }
      return LTIOutcomeResponse(status: .success, description: nil, answering: request, score: last?.score)
    case .replaceResult, .deleteResult:
      grades.withLock { grades in
        grades.append(grade)
        if grades.count > Self.kept { grades.removeFirst(grades.count - Self.kept) }
      }
      let note = wasIssued ? "" : " (a sourcedid this platform did not issue)"
      return LTIOutcomeResponse(
        status: .success, description: "\(request.operation.name) recorded for \(request.sourcedID)\(note)", answering: request)
    }
  }

  private func contentItem(_ request: LoopbackHTTPServer.Request) async -> LoopbackHTTPServer.Response {
    let url = LTIServing.url(of: request, port: port.withLock { $0 })
    do {
      let verified = try await selectionVerifier.verify(
        OAuthRequest(method: "POST", url: url, body: request.body, contentType: "application/x-www-form-urlencoded"), authorization: nil)
      let items = verified.parameters.first { $0.name == "content_items" }?.value ?? "{}"
      selections.withLock { selections in
        selections.append(items)
        if selections.count > Self.kept { selections.removeFirst() }
      }
      return .init(
        status: 200, headers: [("Content-Type", "text/html; charset=utf-8")],
        body: Data("<!DOCTYPE html><html><body><h1>Items received</h1><pre>\(LTIMarkup.escape(items))</pre></body></html>\n".utf8))
    } catch {
      return LoopbackProvider.json(error.httpStatus, ["error": LTIError(error).description])
    }
  }
}
