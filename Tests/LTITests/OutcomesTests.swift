import Foundation
import LTI
import NetworkClient
import NetworkClientTesting
import OAuth1
import Testing

/// Basic Outcomes between the library's tool side (``LTIOutcomesClient``) and its platform side
/// (``LTIOutcomesReceiver``), over a scripted transport: the POX messages, the body hash, the
/// scores refused before sending.
@Suite struct OutcomesTests {
  static let service = "https://lms.example.edu/outcomes"
  static let credentials = Credentials(key: "lms-key", secret: "lms-secret")

  /// A client whose transport hands every request to a receiver, which records the grades.
  static func loop(_ grades: GradeBook = GradeBook(), edit: (@Sendable (Data) -> Data)? = nil) -> (LTIOutcomesClient, StubTransport) {
    let receiver = LTIOutcomesReceiver(secrets: ["lms-key": "lms-secret"])
    let transport = StubTransport(
      fallback: .handler { request in
        let body = edit?(request.body ?? Data()) ?? request.body ?? Data()
        let headers = request.headers.map { (name: $0.name, value: $0.value) }
        let (status, xml) = await receiver.answer(method: "POST", url: request.url.absoluteString, body: body, headers: headers) { received in
          grades.record(received)
        }
        return HTTPResponse(statusCode: status, headers: ["Content-Type": "application/xml"], body: xml, request: request)
      })
    return (LTIOutcomesClient(consumer: credentials, retry: nil, transport: transport), transport)
  }

  @Test func aGradeIsSignedWithABodyHashAndRecorded() async throws {
    let grades = GradeBook()
    let (client, transport) = Self.loop(grades)
    let answer = try await client.replaceResult(at: Self.service, sourcedID: "cell-1", score: 0.92, resultData: .text("my <essay>"))
    #expect(answer.status == .success && answer.operation == "replaceResult")
    #expect(grades.scores["cell-1"] == 0.92)
    let sent = try #require(transport.requests.first)
    #expect(sent.headers["Content-Type"] == "application/xml")
    let authorization = try #require(sent.headers["Authorization"])
    #expect(authorization.contains("oauth_body_hash=") && authorization.contains("HMAC-SHA1"))
    let read = try await client.readResult(at: Self.service, sourcedID: "cell-1")
    #expect(read.status == .success && read.score == 0.92)
    let deleted = try await client.deleteResult(at: Self.service, sourcedID: "cell-1")
    #expect(deleted.status == .success && grades.scores["cell-1"] == nil)
  }

  /// A 503 is retried as NetworkClient retries, each attempt signed anew: the second attempt's
  /// nonce is fresh, so the receiver (which saw the first) records the grade.
  @Test func aFailedAttemptIsRetriedWithAFreshSignature() async throws {
    let grades = GradeBook()
    let receiver = LTIOutcomesReceiver(secrets: ["lms-key": "lms-secret"])
    let attempts = Locked(0)
    let transport = StubTransport(
      fallback: .handler { request in
        let headers = request.headers.map { (name: $0.name, value: $0.value) }
        let (status, xml) = await receiver.answer(
          method: "POST", url: request.url.absoluteString, body: request.body ?? Data(), headers: headers
        ) { received in
          grades.record(received)
        }
        let first = attempts.withLock { count in
          count += 1
          return count == 1
        }
        return HTTPResponse(statusCode: first ? 503 : status, body: xml, request: request)
      })
    let client = LTIOutcomesClient(consumer: Self.credentials, retry: RetryBehavior(sleeper: RecordingSleeper()), transport: transport)
    let answer = try await client.replaceResult(at: Self.service, sourcedID: "cell-r", score: 0.3)
    #expect(answer.status == .success && grades.scores["cell-r"] == 0.3)
    let nonces = transport.requests.compactMap { $0.headers["Authorization"]?.split(separator: ",").first { $0.contains("oauth_nonce") } }
    #expect(nonces.count == 2 && nonces[0] != nonces[1])
  }

  @Test func aBodyChangedAfterSigningIsRefused() async throws {
    let grades = GradeBook()
    let (client, _) = Self.loop(grades) { body in
      Data(String(decoding: body, as: UTF8.self).replacingOccurrences(of: "0.5", with: "1.0").utf8)
    }
    await #expect {
      try await client.replaceResult(at: Self.service, sourcedID: "cell-2", score: 0.5)
    } throws: { error in
      guard case .outcomeServiceFailed(let reason) = error as? LTIError else { return false }
      return reason.contains("401")
    }
    #expect(grades.scores.isEmpty)
  }

  @Test(arguments: [Double.nan, .infinity, -.infinity, -0.1, 1.1, 2])
  func scoresOutsideTheRangeAreRefusedBeforeSending(score: Double) async throws {
    let (client, transport) = Self.loop()
    await #expect {
      try await client.replaceResult(at: Self.service, sourcedID: "cell", score: score)
    } throws: { error in
      if case .invalidScore = error as? LTIError { return true }
      return false
    }
    #expect(transport.requests.isEmpty)
  }

  @Test func theEdgesAreScores() throws {
    for score in [0.0, -0.0, 1.0] {
      let xml = String(decoding: try LTIOutcomeRequest.replaceResult(sourcedID: "c", score: score).xml, as: UTF8.self)
      #expect(xml.contains("<textString>\(score == 1 ? "1" : "0")</textString>"))
    }
  }

  @Test func canvasExtensionsRoundTrip() throws {
    let request = try LTIOutcomeRequest.replaceResult(
      sourcedID: "c&1", score: nil, resultData: .ltiLaunchURL("https://tool.example.edu/view?id=1&x=2"), totalScore: 42,
      submittedAt: "2026-11-29T03:00:00Z")
    let read = try LTIOutcomeRequest(xml: request.xml)
    #expect(read == request)
  }

  @Test func responsesAreRead() throws {
    let failure = """
      <?xml version="1.0" encoding="UTF-8"?>
      <imsx_POXEnvelopeResponse xmlns="http://www.imsglobal.org/services/ltiv1p1/xsd/imsoms_v1p0">
        <imsx_POXHeader><imsx_POXResponseHeaderInfo><imsx_version>V1.0</imsx_version>
          <imsx_messageIdentifier>4560</imsx_messageIdentifier>
          <imsx_statusInfo><imsx_codeMajor>failure</imsx_codeMajor><imsx_severity>error</imsx_severity>
            <imsx_description>Score &lt;1.5&gt; is out of range</imsx_description>
            <imsx_messageRefIdentifier>999999123</imsx_messageRefIdentifier>
            <imsx_operationRefIdentifier>replaceResult</imsx_operationRefIdentifier></imsx_statusInfo>
        </imsx_POXResponseHeaderInfo></imsx_POXHeader>
        <imsx_POXBody><replaceResultResponse/></imsx_POXBody>
      </imsx_POXEnvelopeResponse>
      """
    let response = try LTIOutcomeResponse(xml: Data(failure.utf8))
    #expect(response.status == .failure && response.description == "Score <1.5> is out of range")
    #expect(response.messageRefIdentifier == "999999123" && response.operation == "replaceResult")
    let unsupported = LTIOutcomeResponse(status: .unsupported, description: "no deletes", answering: try .deleteResult(sourcedID: "x"))
    #expect(try LTIOutcomeResponse(xml: unsupported.xml).status == .unsupported)
  }

  static let hostile: [(String, String)] = [
    (
      "doctype",
      #"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><imsx_POXEnvelopeResponse>&x;</imsx_POXEnvelopeResponse>"#
    ),
    ("entity", "<imsx_POXEnvelopeResponse>&unknown;</imsx_POXEnvelopeResponse>"),
    ("unclosed", "<imsx_POXEnvelopeResponse><imsx_POXHeader>"),
    ("mismatched", "<a><b></a></b>"),
    ("two roots", "<a/><b/>"),
    ("text outside", "hello <a/>"),
    ("empty", ""),
    ("deep", String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100)),
    ("many", "<a>" + String(repeating: "<b/>", count: 5000) + "</a>"),
    ("huge", "<a>" + String(repeating: "x", count: 70_000) + "</a>"),
    ("not POX", "<html><body>Bad gateway</body></html>"),
  ]

  @Test(arguments: hostile)
  func hostileXMLIsRefusedWithAReason(name: String, xml: String) {
    #expect(throws: LTIError.self, "\(name)") { try LTIOutcomeResponse(xml: Data(xml.utf8)) }
    #expect(throws: LTIError.self, "\(name)") { try LTIOutcomeRequest(xml: Data(xml.utf8)) }
  }

  @Test func aDoctypeIsRefusedAsSuch() {
    let xml = #"<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>"#
    #expect(throws: LTIError.malformedXML("a DOCTYPE or entity declaration is refused")) { try LTIOutcomeResponse(xml: Data(xml.utf8)) }
  }

  @Test func aReceiverRefusesAGradeWithoutABodyHash() async throws {
    let request = try LTIOutcomeRequest.replaceResult(sourcedID: "c", score: 0.5)
    let signer = try OAuthSigner(consumer: Self.credentials)
    let authorization = try signer.authorizationHeader(
      for: OAuthRequest(method: "POST", url: Self.service, body: request.xml, contentType: "application/xml"))
    let receiver = LTIOutcomesReceiver(secrets: ["lms-key": "lms-secret"])
    await #expect(throws: LTIError.badSignature(advice: "the request has no oauth_body_hash, so its body is not signed")) {
      try await receiver.verify(
        method: "POST", url: Self.service, body: request.xml,
        headers: [(name: "Authorization", value: authorization), (name: "Content-Type", value: "application/xml")])
    }
  }

  @Test func anUnknownOperationIsUnsupported() async throws {
    let xml = Data(
      """
      <imsx_POXEnvelopeRequest xmlns="http://www.imsglobal.org/services/ltiv1p1/xsd/imsoms_v1p0"><imsx_POXHeader><imsx_POXRequestHeaderInfo>\
      <imsx_version>V1.0</imsx_version><imsx_messageIdentifier>1</imsx_messageIdentifier></imsx_POXRequestHeaderInfo></imsx_POXHeader>\
      <imsx_POXBody><readMembershipRequest><resultRecord><sourcedGUID><sourcedId>c</sourcedId></sourcedGUID></resultRecord>\
      </readMembershipRequest></imsx_POXBody></imsx_POXEnvelopeRequest>
      """.utf8)
    let signer = try OAuthSigner(consumer: Self.credentials, configuration: OAuthSigner.Configuration(bodyHash: .sha1))
    let authorization = try signer.authorizationHeader(
      for: OAuthRequest(method: "POST", url: Self.service, body: xml, contentType: "application/xml"))
    let receiver = LTIOutcomesReceiver(secrets: ["lms-key": "lms-secret"])
    let (status, answer) = await receiver.answer(
      method: "POST", url: Self.service, body: xml,
      headers: [(name: "Authorization", value: authorization), (name: "Content-Type", value: "application/xml")]
    ) { _ in LTIOutcomeResponse(status: .success, description: nil, answering: nil) }
    let read = try LTIOutcomeResponse(xml: answer)
    #expect(status == 200 && read.status == .unsupported)
  }
}

/// The grades a test's receiver recorded.
final class GradeBook: Sendable {
  private let state = Locked<[String: Double]>([:])
  var scores: [String: Double] { state.withLock { $0 } }

  func record(_ received: LTIOutcomesReceiver.Received) -> LTIOutcomeResponse {
    let request = received.request
    switch request.operation {
    case .replaceResult(let score, _, _, _):
      state.withLock { $0[request.sourcedID] = score }
      return LTIOutcomeResponse(status: .success, description: "recorded", answering: request)
    case .readResult:
      return LTIOutcomeResponse(status: .success, description: nil, answering: request, score: state.withLock { $0[request.sourcedID] })
    case .deleteResult:
      _ = state.withLock { $0.removeValue(forKey: request.sourcedID) }
      return LTIOutcomeResponse(status: .success, description: "deleted", answering: request)
    }
  }
}
