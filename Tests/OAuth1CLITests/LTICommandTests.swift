import Foundation
import LTI
import Loopback
import NetworkClient
import OAuth1
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `oauth1 lti tool`, `launch` and `serve` as real processes, against Python's `lti` package
/// (pinned, `Tests/Peers/lti_peer.py`): its ToolConsumer's launches, its ToolProvider's
/// verification, its OutcomeRequest's grades.
@Suite("oauth1 lti against Python's lti", .tags(.peers, .processes), .tier(.peers, .processes), .serialized)
struct LTICommandTests {
  static let key = "lti-cli-key"
  static let secret = "lti-cli-secret-\(UUID().uuidString)"

  static func start(_ action: String, _ arguments: [String] = []) async throws -> LoopbackServer {
    try await LoopbackServer.start(
      executable: PackagePaths.executable("oauth1"),
      arguments: ["lti", action, "--port", "0", "--until-stdin-closes", "--consumer-key", key, "--consumer-secret", secret] + arguments)
  }

  static func peer(_ command: [String: Any]) async throws -> [String: Any] {
    let output = try await PythonPeer.run(script: "lti_peer.py", input: try JSONSerialization.data(withJSONObject: command), requirements: .lti)
    return try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
  }

  static func post(_ url: String, _ body: String, headers: [String: String] = ["Content-Type": "application/x-www-form-urlencoded"]) async throws
    -> (status: Int, body: String)
  {
    var request = URLRequest(url: try #require(URL(string: url)))
    request.httpMethod = "POST"
    request.httpBody = Data(body.utf8)
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await URLSession.tests.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
  }

  static func get(_ url: String) async throws -> (status: Int, body: String) {
    let (data, response) = try await URLSession.tests.data(from: try #require(URL(string: url)))
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
  }

  static func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
  }

  static let parameters: [String: String] = [
    "lti_message_type": "basic-lti-launch-request", "lti_version": "LTI-1p0", "resource_link_id": "link-42", "user_id": "u-1",
    "roles": "urn:lti:role:ims/lis/Instructor", "context_id": "c-1", "custom_week": "3",
  ]

  @Test func theToolAcceptsToolConsumerLaunchesAndRefusesTamperedReplayedAndOldOnes() async throws {
    let tool = try await Self.start("tool")
    defer { tool.stop() }
    let url = tool.baseURL.absoluteString + "/launch"
    func launch(_ timestamp: Int? = nil) async throws -> String {
      var command: [String: Any] = ["command": "consumer_launch", "url": url, "key": Self.key, "secret": Self.secret, "params": Self.parameters]
      command["timestamp"] = timestamp
      return try #require(try await Self.peer(command)["body"] as? String)
    }
    let body = try await launch()
    let accepted = try await Self.post(url, body)
    #expect(accepted.status == 200, "\(accepted)")
    let typed = try Self.json(accepted.body)
    #expect((typed["user"] as? [String: Any])?["id"] as? String == "u-1" && (typed["custom"] as? [String: Any])?["week"] as? String == "3")
    #expect(
      (typed["resourceLink"] as? [String: Any])?["id"] as? String == "link-42" && typed["roles"] as? [String] == ["urn:lti:role:ims/lis/Instructor"])

    let replayed = try await Self.post(url, body)
    #expect(replayed.status == 401 && replayed.body.contains("used already"), "\(replayed)")
    let tampered = try await Self.post(url, try await launch().replacingOccurrences(of: "user_id=u-1", with: "user_id=u-2"))
    #expect(tampered.status == 401 && tampered.body.contains("signature does not match"), "\(tampered)")
    let old = try await Self.post(url, try await launch(Int(Date().timeIntervalSince1970) - 3600))
    #expect(old.status == 401 && old.body.contains("timestamp"), "\(old)")
    #expect(![accepted.body, replayed.body, tampered.body, old.body].contains { $0.contains(Self.secret) })
  }

  @Test func toolProviderAcceptsTheLaunchCommandsLaunch() async throws {
    let captured = Locked<String?>(nil)
    let fakeTool = try LoopbackHTTPServer { (request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response in
      captured.withLock { $0 = String(decoding: request.body, as: UTF8.self) }
      return .init(status: 200, headers: [("Content-Type", "text/plain")], body: Data("launched\n".utf8))
    }
    let url = fakeTool.baseURL.absoluteString + "/launch"
    let result = try await oauth1([
      "lti", "launch", url, "--consumer-key", Self.key, "--consumer-secret", Self.secret, "--user-id", "s-9", "--roles", "Learner,Mentor",
      "--outcome-url", "http://127.0.0.1:1/outcomes", "--sourcedid", "link-1:s-9", "--custom", "unit=a&b", "--signature-method", "HMAC-SHA256",
    ])
    #expect(result.status == 0 && result.stdout == "HTTP 200\nlaunched\n", "\(result.stderr)")
    let body = try #require(captured.withLock { $0 })
    let verdict = try await Self.peer(["command": "provider_verify", "url": url, "key": Self.key, "secret": Self.secret, "body": body])
    #expect(verdict["valid"] as? Bool == true && verdict["is_student"] as? Bool == true && verdict["is_outcome_service"] as? Bool == true)
    let params = try #require(verdict["params"] as? [String: Any])
    #expect(params["custom_unit"] as? String == "a&b" && params["oauth_signature_method"] as? String == "HMAC-SHA256")

    let form = try await oauth1(["lti", "launch", url, "--consumer-key", Self.key, "--consumer-secret", Self.secret, "--form"])
    #expect(form.status == 0 && form.stdout.contains("<form method=\"post\" action=\"\(url)\"") && form.stdout.contains("oauth_signature"))
    #expect(!form.stdout.contains(Self.secret) && !result.stdout.contains(Self.secret))
  }

  @Test func serveRecordsOutcomeRequestGradesAndRefusesAChangedBody() async throws {
    let platform = try await Self.start("serve")
    defer { platform.stop() }
    let outcomes = platform.baseURL.absoluteString + "/outcomes"
    let posted = try await Self.peer([
      "command": "outcome_post", "url": outcomes, "key": Self.key, "secret": Self.secret, "sourcedid": "not-issued-1",
      "operation": "replaceResult", "score": "0.6",
    ])
    #expect(posted["code_major"] as? String == "success", "\(posted)")

    let signed = try await Self.peer([
      "command": "outcome_sign", "url": outcomes, "key": Self.key, "secret": Self.secret, "sourcedid": "not-issued-2",
      "operation": "replaceResult", "score": "0.1",
    ])
    var headers = try #require(signed["headers"] as? [String: String])
    headers["Content-Length"] = nil
    let changed = try #require(signed["body"] as? String).replacingOccurrences(of: "0.1", with: "0.9")
    let refused = try await Self.post(outcomes, changed, headers: headers)
    #expect(refused.status == 401 && refused.body.contains("oauth_body_hash"), "\(refused)")
    #expect(refused.body.contains("<imsx_codeMajor>failure</imsx_codeMajor>"))

    let grades = try #require(
      try JSONSerialization.jsonObject(with: Data(try await Self.get(platform.baseURL.absoluteString + "/grades").body.utf8)) as? [[String: Any]])
    #expect(grades.count == 1 && grades[0]["sourcedid"] as? String == "not-issued-1" && grades[0]["score"] as? Double == 0.6)
    #expect(grades[0]["issued"] as? Bool == false)
  }

  /// The whole loop between the two commands: serve's page launches the tool, the tool's
  /// `/grade` sends the grade back, and serve records it as one it issued.
  @Test func serveLaunchesTheToolAndTheToolsGradeComesBack() async throws {
    let tool = try await Self.start("tool")
    defer { tool.stop() }
    let platform = try await Self.start("serve", ["--tool", tool.baseURL.absoluteString + "/launch"])
    defer { platform.stop() }
    let page = try await Self.get(platform.baseURL.absoluteString + "/launch?user_id=s-1&roles=Learner&resource_link_id=quiz")
    #expect(page.status == 200 && page.body.contains("document.forms[0].submit()"))
    let fields = Self.hiddenFields(page.body)
    let launched = try await Self.post(tool.baseURL.absoluteString + "/launch", fields)
    #expect(launched.status == 200, "\(launched)")
    let outcome = try #require(try Self.json(launched.body)["outcomeService"] as? [String: Any])
    #expect(outcome["resultSourcedID"] as? String == "quiz:s-1")
    let graded = try await Self.post(tool.baseURL.absoluteString + "/grade", "sourcedid=quiz%3As-1&score=0.8")
    #expect(graded.status == 200 && graded.body.contains("success"), "\(graded)")
    let refused = try await Self.post(tool.baseURL.absoluteString + "/grade", "sourcedid=quiz%3As-1&score=1.5")
    #expect(refused.status == 400 && refused.body.contains("not a finite number from 0 to 1"), "\(refused)")
    let grades = try #require(
      try JSONSerialization.jsonObject(with: Data(try await Self.get(platform.baseURL.absoluteString + "/grades").body.utf8)) as? [[String: Any]])
    #expect(grades.count == 1 && grades[0]["score"] as? Double == 0.8 && grades[0]["issued"] as? Bool == true, "\(grades)")
  }

  /// serve's Content-Item endpoint verifies a selection signed by the library and lists its
  /// items; the same selection with a changed item is refused.
  @Test func serveVerifiesAContentItemSelection() async throws {
    let platform = try await Self.start("serve")
    defer { platform.stop() }
    let returnURL = platform.baseURL.absoluteString + "/content-item"
    let selection = LTIContentItemSelection(items: [.ltiLink(url: "https://tool.example.edu/quiz/7", title: "Quiz 7")], data: "state-1")
    let form = try selection.signedForm(returnURL: returnURL, consumer: Credentials(key: Self.key, secret: Self.secret))
    let body = String(decoding: form.body, as: UTF8.self)
    let tampered = try await Self.post(returnURL, body.replacingOccurrences(of: "quiz%2F7", with: "quiz%2F8"))
    #expect(tampered.status == 401 && tampered.body.contains("signature does not match"), "\(tampered)")
    let accepted = try await Self.post(returnURL, body)
    #expect(accepted.status == 200 && accepted.body.contains("Quiz 7"), "\(accepted)")
    let items = try await Self.get(platform.baseURL.absoluteString + "/content-items")
    #expect(items.body.contains("https://tool.example.edu/quiz/7") && !items.body.contains("quiz/8"), "\(items)")
  }

  /// The hidden fields of an auto-submitting form, as the form body a browser would post.
  static func hiddenFields(_ html: String) -> String {
    let pattern = try! NSRegularExpression(pattern: #"<input type="hidden" name="([^"]*)" value="([^"]*)">"#)
    let text = html as NSString
    func unescaped(_ value: String) -> String {
      value.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
        .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return pattern.matches(in: html, range: NSRange(location: 0, length: text.length)).map { match in
      let name = unescaped(text.substring(with: match.range(at: 1))), value = unescaped(text.substring(with: match.range(at: 2)))
      return name.addingPercentEncoding(withAllowedCharacters: allowed)! + "=" + value.addingPercentEncoding(withAllowedCharacters: allowed)!
    }.joined(separator: "&")
  }
}
