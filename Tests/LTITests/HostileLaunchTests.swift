import Foundation
import LTI
import OAuth1
import Testing

/// Launches and grades past the limits: refused, with a reason, before any secret is looked up
/// or any XML is read.
@Suite struct HostileLaunchTests {
  @Test func aLaunchBodyOverTheVerifiersLimitIsRefused() async throws {
    var options = LTILaunchVerifier.defaultOptions
    options.limits.maximumFormBodyBytes = 64 * 1024
    let verifier = LTILaunchVerifier(secrets: ["lms-key": "lms-secret"], options: options)
    var launch = LTILaunchParameters(resourceLinkID: "r")
    launch.custom = [(name: "padding", value: String(repeating: "x", count: 100_000))]
    let body = try LaunchTests.signed(launch.parameters)
    await #expect {
      try await verifier.verify(method: "POST", url: LaunchTests.url, body: body)
    } throws: { error in
      guard let error = error as? LTIError, case .refused(let problem, _, _) = error else { return false }
      return problem == .parameterRejected && error.httpStatus == 413
    }
  }

  @Test func aLaunchWithTooManyParametersIsRefused() async throws {
    var launch = LTILaunchParameters(resourceLinkID: "r")
    launch.custom = (0..<10_001).map { (name: "p\($0)", value: "v") }
    let body = try LaunchTests.signed(launch.parameters)
    await #expect {
      try await LaunchTests.verifier().verify(method: "POST", url: LaunchTests.url, body: body)
    } throws: { error in
      if case .refused(let problem, _, _) = error as? LTIError { return problem == .parameterRejected }
      return false
    }
  }

  @Test func aHugeGradeIsRefusedUnread() async throws {
    let receiver = LTIOutcomesReceiver(secrets: ["lms-key": "lms-secret"])
    let body = Data(repeating: UInt8(ascii: "x"), count: LTIOutcomeRequest.maximumXMLBytes + 1)
    let (status, xml) = await receiver.answer(method: "POST", url: "https://lms.example.edu/outcomes", body: body, headers: []) { _ in
      Issue.record("a huge grade reached the handler")
      return LTIOutcomeResponse(status: .success, description: nil, answering: nil)
    }
    let answer = try LTIOutcomeResponse(xml: xml)
    #expect(status == 400 && answer.status == .failure)
  }

  @Test func aSignedGradeWithAnEntityIsRefusedAfterVerification() async throws {
    let xml = Data(
      #"<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><imsx_POXEnvelopeRequest>&e;</imsx_POXEnvelopeRequest>"#.utf8)
    let signer = try OAuthSigner(consumer: OutcomesTests.credentials, configuration: OAuthSigner.Configuration(bodyHash: .sha1))
    let authorization = try signer.authorizationHeader(
      for: OAuthRequest(method: "POST", url: OutcomesTests.service, body: xml, contentType: "application/xml"))
    let receiver = LTIOutcomesReceiver(secrets: ["lms-key": "lms-secret"])
    await #expect(throws: LTIError.malformedXML("a DOCTYPE or entity declaration is refused")) {
      try await receiver.verify(
        method: "POST", url: OutcomesTests.service, body: xml,
        headers: [(name: "Authorization", value: authorization), (name: "Content-Type", value: "application/xml")])
    }
  }
}
