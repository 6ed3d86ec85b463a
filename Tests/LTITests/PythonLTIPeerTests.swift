import Foundation
import LTI
import Loopback
import NetworkClient
import OAuth1
import TestSupport
import Testing

/// The library against an LTI 1.1 implementation it did not write: Python's `lti` package
/// (0.9.5, pinned with its dependencies in ``PythonPeer/Requirements/lti``), whose ToolConsumer
/// signs launches, whose ToolProvider verifies them, and whose OutcomeRequest sends grades;
/// and oauthlib with hashlib checking our grades' signatures and body hashes.
@Suite(.tags(.peers), .tier(.peers), .serialized)
struct PythonLTIPeerTests {
  static let url = "http://127.0.0.1:8000/lti/launch?tenant=a%20b"
  static let key = "lms-key"
  static let secret = "lms secret&with/reserved+chars"

  static func peer(_ command: [String: Any]) async throws -> [String: Any] {
    let input = try JSONSerialization.data(withJSONObject: command)
    let output = try await PythonPeer.run(script: "lti_peer.py", input: input, requirements: .lti)
    return try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
  }

  static let launchParameters: [String: String] = [
    "lti_message_type": "basic-lti-launch-request", "lti_version": "LTI-1p0", "resource_link_id": "120988f929-274612",
    "resource_link_title": "Weekly Blog", "user_id": "292832126", "roles": "urn:lti:role:ims/lis/Instructor,Learner",
    "lis_person_name_full": "Jane Q. Public", "lis_person_contact_email_primary": "user@school.edu", "context_id": "456434513",
    "context_label": "SI182", "lis_outcome_service_url": "https://lms.example.edu/grades", "lis_result_sourcedid": "feb-123::28883",
    "launch_presentation_return_url": "https://lms.example.edu/back", "custom_chapter": "3 & 4 ü", "ext_lms": "canvas",
    "tool_consumer_instance_guid": "lmsng.school.edu",
  ]

  static func consumerLaunch(method: String = "HMAC-SHA1", parameters: [String: String] = launchParameters) async throws -> String {
    let answer = try await peer([
      "command": "consumer_launch", "url": url, "key": key, "secret": secret, "params": parameters, "signature_method": method,
    ])
    return try #require(answer["body"] as? String)
  }

  static func verifier(clock: any OAuthClock = SystemClock()) -> LTILaunchVerifier {
    var options = LTILaunchVerifier.defaultOptions
    options.clock = clock
    return LTILaunchVerifier(secrets: [key: secret], options: options)
  }

  @Test(arguments: ["HMAC-SHA1", "HMAC-SHA256"])
  func toolConsumerLaunchesAreAcceptedAndTyped(method: String) async throws {
    let body = try await Self.consumerLaunch(method: method)
    let launch = try await Self.verifier().verify(method: "POST", url: Self.url, body: Data(body.utf8))
    #expect(launch.signatureMethod == method && launch.consumerKey == Self.key)
    #expect(launch.resourceLink?.id == "120988f929-274612" && launch.user.id == "292832126")
    #expect(launch.roles.isInstructor && launch.roles.isLearner)
    #expect(launch.outcomeService?.resultSourcedID == "feb-123::28883" && launch.custom["chapter"] == "3 & 4 ü")
    #expect(launch.extensions["lms"] == "canvas" && launch.context?.label == "SI182")
  }

  @Test func aTamperedToolConsumerLaunchIsRefused() async throws {
    let body = try await Self.consumerLaunch()
    let tampered = body.replacingOccurrences(of: "user_id=292832126", with: "user_id=1")
    #expect(tampered != body)
    await #expect {
      try await Self.verifier().verify(method: "POST", url: Self.url, body: Data(tampered.utf8))
    } throws: { error in
      if case .badSignature = error as? LTIError { return true }
      return false
    }
  }

  @Test func aReplayedToolConsumerLaunchIsRefused() async throws {
    let body = Data(try await Self.consumerLaunch().utf8)
    let verifier = Self.verifier()
    _ = try await verifier.verify(method: "POST", url: Self.url, body: body)
    await #expect(throws: LTIError.replayedNonce) { try await verifier.verify(method: "POST", url: Self.url, body: body) }
  }

  @Test func anOldToolConsumerLaunchIsRefused() async throws {
    let body = Data(try await Self.consumerLaunch().utf8)
    let later = FixedClock(seconds: Int64(Date().timeIntervalSince1970) + 3600)
    await #expect {
      try await Self.verifier(clock: later).verify(method: "POST", url: Self.url, body: body)
    } throws: { error in
      if case .staleTimestamp = error as? LTIError { return true }
      return false
    }
  }

  @Test(arguments: [OAuthSignatureMethod.hmacSHA1, .hmacSHA256])
  func toolProviderAcceptsOurLaunches(method: OAuthSignatureMethod) async throws {
    var launch = LTILaunchParameters(resourceLinkID: "link-1")
    launch.userID = "student-7"
    launch.roles = ["urn:lti:role:ims/lis/Instructor"]
    launch.outcome = (url: "https://lms.example.edu/grades", sourcedID: "link-1:student-7")
    launch.custom = [(name: "unit", value: "a=b&c d")]
    let form = try LTISignedForm.sign(
      url: Self.url, parameters: launch.parameters, consumer: Credentials(key: Self.key, secret: Self.secret), signatureMethod: method)
    let body = String(decoding: form.body, as: UTF8.self)
    let answer = try await Self.peer(["command": "provider_verify", "url": Self.url, "key": Self.key, "secret": Self.secret, "body": body])
    #expect(answer["valid"] as? Bool == true)
    #expect(answer["is_launch_request"] as? Bool == true && answer["is_outcome_service"] as? Bool == true)
    let params = try #require(answer["params"] as? [String: Any])
    #expect(params["custom_unit"] as? String == "a=b&c d" && params["user_id"] as? String == "student-7")

    let tampered = body.replacingOccurrences(of: "student-7", with: "student-8")
    let refused = try await Self.peer(["command": "provider_verify", "url": Self.url, "key": Self.key, "secret": Self.secret, "body": tampered])
    #expect(refused["valid"] as? Bool == false)
  }

  /// An outcome service on loopback HTTP that verifies with ``LTIOutcomesReceiver`` and keeps the grades.
  static func outcomeService(_ grades: GradeBook) throws -> LoopbackHTTPServer {
    let receiver = LTIOutcomesReceiver(secrets: [key: secret])
    return try LoopbackHTTPServer { request in
      let url = "http://127.0.0.1:\(request.header("host")?.split(separator: ":").last ?? "80")\(request.target)"
      let (status, xml) = await receiver.answer(method: request.method, url: url, body: request.body, headers: request.headers) {
        grades.record($0)
      }
      return .init(status: status, headers: [("Content-Type", "application/xml")], body: xml)
    }
  }

  @Test func outcomeRequestGradesAreRecordedByOurReceiver() async throws {
    let grades = GradeBook()
    let server = try Self.outcomeService(grades)
    let url = server.baseURL.absoluteString + "/outcomes"
    let posted = try await Self.peer([
      "command": "outcome_post", "url": url, "key": Self.key, "secret": Self.secret, "sourcedid": "cell-9", "operation": "replaceResult",
      "score": "0.75", "result_data": ["text": "essay <b>text</b>"],
    ])
    #expect(posted["code_major"] as? String == "success" && posted["status"] as? Int == 200)
    #expect(grades.scores["cell-9"] == 0.75)
    let read = try await Self.peer([
      "command": "outcome_post", "url": url, "key": Self.key, "secret": Self.secret, "sourcedid": "cell-9", "operation": "readResult",
    ])
    #expect(read["code_major"] as? String == "success" && read["score"] as? String == "0.75")
    let deleted = try await Self.peer([
      "command": "outcome_post", "url": url, "key": Self.key, "secret": Self.secret, "sourcedid": "cell-9", "operation": "deleteResult",
    ])
    #expect(deleted["code_major"] as? String == "success" && grades.scores["cell-9"] == nil)
  }

  @Test func outcomeRequestGradesWithAChangedBodyAreRefused() async throws {
    let url = "https://lms.example.edu/outcomes"
    let signed = try await Self.peer([
      "command": "outcome_sign", "url": url, "key": Self.key, "secret": Self.secret, "sourcedid": "cell-3", "operation": "replaceResult",
      "score": "0.25",
    ])
    let headers = try #require(signed["headers"] as? [String: String]).map { (name: $0.key, value: $0.value) }
    let body = try #require(signed["body"] as? String)
    let receiver = LTIOutcomesReceiver(secrets: [Self.key: Self.secret])
    let received = try await receiver.verify(method: "POST", url: url, body: Data(body.utf8), headers: headers)
    #expect(received.score == 0.25 && received.request.sourcedID == "cell-3")

    let changed = body.replacingOccurrences(of: "0.25", with: "1.0")
    await #expect {
      try await receiver.verify(method: "POST", url: url, body: Data(changed.utf8), headers: headers)
    } throws: { error in
      guard case .badSignature(let advice) = error as? LTIError else { return false }
      return advice.contains("oauth_body_hash")
    }
  }

  @Test func ourGradesPassOauthlibsSignatureAndBodyHashChecks() async throws {
    let captured = Locked<LoopbackHTTPServer.Request?>(nil)
    let answer = LTIOutcomeResponse(status: .success, description: "ok", answering: nil).xml
    let server = try LoopbackHTTPServer { (request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response in
      captured.withLock { $0 = request }
      return .init(status: 200, headers: [("Content-Type", "application/xml")], body: answer)
    }
    let url = server.baseURL.absoluteString + "/outcomes?course=7"
    let client = LTIOutcomesClient(consumer: Credentials(key: Self.key, secret: Self.secret), retry: nil)
    for (operation, score) in [("replaceResult", 0.875), ("readResult", nil), ("deleteResult", nil)] as [(String, Double?)] {
      let response: LTIOutcomeResponse
      switch operation {
      case "replaceResult": response = try await client.replaceResult(at: url, sourcedID: "cell & 1", score: score)
      case "readResult": response = try await client.readResult(at: url, sourcedID: "cell & 1")
      default: response = try await client.deleteResult(at: url, sourcedID: "cell & 1")
      }
      #expect(response.status == .success)
      let request = try #require(captured.withLock { $0 })
      var headers: [String: String] = [:]
      for header in request.headers { headers[header.name] = header.value }
      let checked = try await Self.peer([
        "command": "outcome_check", "url": url, "key": Self.key, "secret": Self.secret, "method": request.method, "headers": headers,
        "body": String(decoding: request.body, as: UTF8.self),
      ])
      #expect(checked["valid"] as? Bool == true, "\(operation)")
      #expect(checked["body_hash_matches"] as? Bool == true, "\(operation)")
      #expect(checked["operation"] as? String == operation && checked["sourcedid"] as? String == "cell & 1")
      if let score { #expect(checked["score"] as? String == "\(score)") }
    }
  }
}
