import Foundation
import LTI
import OAuth1
import OAuth1Testing
import Testing

/// Launches signed by the library's platform side (``LTISignedForm``) and read by its tool side
/// (``LTILaunchVerifier``): every field typed, every refusal named.
@Suite struct LaunchTests {
  static let url = "https://tool.example.edu/launch"
  static let credentials = Credentials(key: "lms-key", secret: "lms-secret")

  static func full() -> [OAuthParameter] {
    var launch = LTILaunchParameters(resourceLinkID: "120988f929-274612")
    launch.userID = "292832126"
    launch.roles = ["Instructor", "urn:lti:instrole:ims/lis/Administrator"]
    launch.contextID = "456434513"
    launch.outcome = (url: "https://lms.example.edu/grades", sourcedID: "feb-123-456-2929::28883")
    launch.returnURL = "https://lms.example.edu/back"
    launch.custom = [(name: "chapter", value: "3 & 4")]
    launch.extra = [
      (name: "resource_link_title", value: "Weekly Blog"), (name: "lis_person_name_full", value: "Jane Q. Public"),
      (name: "lis_person_name_given", value: "Jane"), (name: "lis_person_name_family", value: "Public"),
      (name: "lis_person_contact_email_primary", value: "user@school.edu"), (name: "lis_person_sourcedid", value: "school.edu:user"),
      (name: "context_label", value: "SI182"), (name: "context_title", value: "Design of Personal Environments"),
      (name: "launch_presentation_document_target", value: "iframe"), (name: "launch_presentation_locale", value: "en-US"),
      (name: "tool_consumer_instance_guid", value: "lmsng.school.edu"), (name: "tool_consumer_info_product_family_code", value: "canvas"),
      (name: "ext_outcome_data_values_accepted", value: "url,text"), (name: "ext_outcome_result_total_score_accepted", value: "true"),
      (name: "ext_lms", value: "canvas"),
    ]
    return launch.parameters
  }

  static func verifier(clock: any OAuthClock = SystemClock()) -> LTILaunchVerifier {
    var options = LTILaunchVerifier.defaultOptions
    options.clock = clock
    return LTILaunchVerifier(secrets: ["lms-key": "lms-secret"], options: options)
  }

  static func signed(_ parameters: [OAuthParameter], method: OAuthSignatureMethod = .hmacSHA1) throws -> Data {
    try LTISignedForm.sign(url: url, parameters: parameters, consumer: credentials, signatureMethod: method).body
  }

  @Test(arguments: [OAuthSignatureMethod.hmacSHA1, .hmacSHA256])
  func aSignedLaunchIsReadIntoTypes(method: OAuthSignatureMethod) async throws {
    let launch = try await Self.verifier().verify(method: "POST", url: Self.url, body: try Self.signed(Self.full(), method: method))
    #expect(launch.messageType == .basicLaunch && launch.version == "LTI-1p0")
    #expect(launch.consumerKey == "lms-key" && launch.signatureMethod == method.rawValue)
    #expect(launch.resourceLink == LTIResourceLink(id: "120988f929-274612", title: "Weekly Blog", description: nil))
    #expect(launch.user.id == "292832126" && launch.user.fullName == "Jane Q. Public" && launch.user.email == "user@school.edu")
    #expect(launch.user.givenName == "Jane" && launch.user.familyName == "Public" && launch.user.sourcedID == "school.edu:user")
    #expect(launch.roles.isInstructor && launch.roles.isAdministrator && !launch.roles.isLearner)
    #expect(launch.context == LTIContext(id: "456434513", label: "SI182", title: "Design of Personal Environments", type: nil))
    let outcomes = try #require(launch.outcomeService)
    #expect(outcomes.url == "https://lms.example.edu/grades" && outcomes.resultSourcedID == "feb-123-456-2929::28883")
    #expect(outcomes.acceptedResultData == ["url", "text"] && outcomes.acceptsTotalScore && !outcomes.acceptsSubmittedAt)
    #expect(launch.presentation.returnURL == "https://lms.example.edu/back" && launch.presentation.documentTarget == "iframe")
    #expect(launch.presentation.locale == "en-US")
    #expect(launch.toolConsumer.instanceGUID == "lmsng.school.edu" && launch.toolConsumer.productFamilyCode == "canvas")
    #expect(launch.custom == ["chapter": "3 & 4"])
    #expect(launch.extensions["lms"] == "canvas" && launch.extensions["outcome_data_values_accepted"] == "url,text")
    #expect(launch.contentItemRequest == nil)
    #expect(launch.parameters["oauth_signature"] == nil)
  }

  @Test func aTamperedFieldIsABadSignature() async throws {
    let body = String(decoding: try Self.signed(Self.full()), as: UTF8.self)
    let tampered = Data(body.replacingOccurrences(of: "roles=Instructor", with: "roles=Administrator").utf8)
    await #expect(throws: LTIError.self) { try await Self.verifier().verify(method: "POST", url: Self.url, body: tampered) }
    do {
      _ = try await Self.verifier().verify(method: "POST", url: Self.url, body: tampered)
    } catch {
      guard case .badSignature = error else {
        Issue.record("expected a bad signature, got \(error)")
        return
      }
      #expect(error.httpStatus == 401)
    }
  }

  @Test func anotherURLIsABadSignature() async throws {
    let body = try Self.signed(Self.full())
    await #expect {
      try await Self.verifier().verify(method: "POST", url: "http://10.0.0.4:8080/launch", body: body)
    } throws: { error in
      if case .badSignature = error as? LTIError { return true }
      return false
    }
  }

  @Test func aReplayIsRefused() async throws {
    let verifier = Self.verifier()
    let body = try Self.signed(Self.full())
    _ = try await verifier.verify(method: "POST", url: Self.url, body: body)
    await #expect(throws: LTIError.replayedNonce) { try await verifier.verify(method: "POST", url: Self.url, body: body) }
  }

  @Test func anOldLaunchIsStale() async throws {
    let clock = ManualClock(seconds: Int64(Date().timeIntervalSince1970))
    let body = try Self.signed(Self.full())
    clock.advance(by: 3600)
    await #expect {
      try await Self.verifier(clock: clock).verify(method: "POST", url: Self.url, body: body)
    } throws: { error in
      if case .staleTimestamp(let window) = error as? LTIError { return window != nil }
      return false
    }
  }

  @Test func anUnknownKeyIsNamed() async throws {
    let body = try LTISignedForm.sign(url: Self.url, parameters: Self.full(), consumer: Credentials(key: "other", secret: "x")).body
    await #expect(throws: LTIError.unknownConsumer("other")) { try await Self.verifier().verify(method: "POST", url: Self.url, body: body) }
  }

  @Test func aLaunchWithoutAResourceLinkIsMissingIt() async throws {
    let parameters = Self.full().filter { $0.name != "resource_link_id" }
    await #expect(throws: LTIError.missingParameter("resource_link_id")) {
      try await Self.verifier().verify(method: "POST", url: Self.url, body: try Self.signed(parameters))
    }
  }

  @Test func anotherMessageTypeOrVersionIsRefused() async throws {
    var parameters = Self.full()
    parameters[0].value = "ToolProxyRegistrationRequest"
    await #expect(throws: LTIError.wrongMessageType("ToolProxyRegistrationRequest")) {
      try await Self.verifier().verify(method: "POST", url: Self.url, body: try Self.signed(parameters))
    }
    parameters = Self.full()
    parameters[1].value = "LTI-2p0"
    await #expect(throws: LTIError.unsupportedVersion("LTI-2p0")) {
      try await Self.verifier().verify(method: "POST", url: Self.url, body: try Self.signed(parameters))
    }
    await #expect(throws: LTIError.wrongMessageType("ContentItemSelectionRequest")) {
      var request = LTILaunchParameters(resourceLinkID: "r")
      request.messageType = .contentItemSelectionRequest
      request.extra = [(name: "content_item_return_url", value: "https://lms.example.edu/ci")]
      return try await Self.verifier().verify(
        method: "POST", url: Self.url, body: try Self.signed(request.parameters), accepting: [.basicLaunch])
    }
  }

  @Test func anUnsignedLaunchLacksItsProtocolParameters() async throws {
    let body = Data(OAuthFormEncoding.encode(Self.full()).utf8)
    await #expect {
      try await Self.verifier().verify(method: "POST", url: Self.url, body: body)
    } throws: { error in
      if case .missingParameter(let names) = error as? LTIError { return names.contains("oauth_consumer_key") }
      return false
    }
  }

  @Test func hmacSHA1OnlyRefusesSHA256() async throws {
    var options = LTILaunchVerifier.defaultOptions
    options.allowedSignatureMethods = [.hmacSHA1]
    let verifier = LTILaunchVerifier(secrets: ["lms-key": "lms-secret"], options: options)
    await #expect {
      try await verifier.verify(method: "POST", url: Self.url, body: try Self.signed(Self.full(), method: .hmacSHA256))
    } throws: { error in
      if case .refused(let problem, _, _) = error as? LTIError { return problem == .signatureMethodRejected }
      return false
    }
  }

  @Test func noSecretAppearsInAnyRefusal() async throws {
    let body = String(decoding: try Self.signed(Self.full()), as: UTF8.self)
    let tampered = Data(body.replacingOccurrences(of: "user_id=292832126", with: "user_id=1").utf8)
    do {
      _ = try await Self.verifier().verify(method: "POST", url: Self.url, body: tampered)
      Issue.record("a tampered launch was accepted")
    } catch {
      #expect(!error.description.contains("lms-secret"))
    }
  }
}
