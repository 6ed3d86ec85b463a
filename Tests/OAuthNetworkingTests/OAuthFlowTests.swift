import Foundation
import NetworkClient
import NetworkClientTesting
import OAuth1
import OAuthNetworking
import Testing

@Suite("OAuthFlow (three-legged, PIN)")
struct OAuthFlowTests {
  let consumer = Credentials(key: "ck", secret: "cs")
  let base = URL(string: "https://api.example.com")!

  func flow(_ replies: [StubTransport.Reply]) -> (OAuthFlow, StubTransport) {
    let stub = StubTransport(replies)
    return (OAuthFlow(baseURL: base, consumer: consumer, transport: stub), stub)
  }

  @Test func theWholeFlow() async throws {
    let (flow, stub) = flow([
      .status(
        200, headers: ["Content-Type": "text/html"], body: Data("oauth_token=req&oauth_token_secret=reqsecret&oauth_callback_confirmed=true".utf8)),
      .status(200, body: Data("oauth_token=1001-acc&oauth_token_secret=accsecret&user_id=1001&screen_name=swift_fixture".utf8)),
    ])
    let temporary = try await flow.requestToken()
    #expect(temporary.credentials == Credentials(key: "req", secret: "reqsecret"))
    #expect(flow.authorizeURL(for: temporary).absoluteString == "https://api.example.com/oauth/authorize?oauth_token=req")
    #expect(
      flow.authenticateURL(for: temporary, forceLogin: true).absoluteString
        == "https://api.example.com/oauth/authenticate?oauth_token=req&force_login=true")
    let tokens = try await flow.accessToken(for: temporary, verifier: " 1234567\n")
    #expect(tokens.credentials == Credentials(key: "1001-acc", secret: "accsecret"))
    #expect(tokens.userID == "1001" && tokens.screenName == "swift_fixture")
    #expect(!"\(tokens)".contains("accsecret") && !"\(temporary)".contains("reqsecret"))

    let first = try OAuthAuthorizationHeader.parse(stub.requests[0].headers["Authorization"] ?? "")
    #expect(first.parameters.contains(OAuthParameter("oauth_callback", "oob")))
    #expect(!first.parameters.contains { $0.name == "oauth_token" })
    let second = try OAuthAuthorizationHeader.parse(stub.requests[1].headers["Authorization"] ?? "")
    #expect(second.parameters.contains(OAuthParameter("oauth_verifier", "1234567")))
    #expect(second.parameters.contains(OAuthParameter("oauth_token", "req")))
    #expect(stub.requests.allSatisfy { $0.method == .post })
  }

  @Test(arguments: [
    (
      "Error processing your OAuth request: Invalid oauth_verifier parameter", "Error processing your OAuth request: Invalid oauth_verifier parameter"
    ),
    (#"{"errors":[{"code":32,"message":"Could not authenticate you."}]}"#, "Could not authenticate you. (code 32)"),
    (
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<hash>\n  <error>Desktop applications only support the oauth_callback value 'oob'</error>\n</hash>",
      "Desktop applications only support the oauth_callback value 'oob'"
    ),
  ])
  func errorBodiesInAnyFormatAreReadable(body: String, message: String) async throws {
    let (flow, _) = flow([.status(401, body: Data(body.utf8))])
    await #expect {
      try await flow.requestToken()
    } throws: { error in
      guard case .rejected(let step, let status, let text, _) = error as? OAuthFlowError else { return false }
      return step == "request_token" && status == 401 && text == message
    }
  }

  @Test func aWrongPinSaysSo() async throws {
    let (flow, _) = flow([.status(401, body: Data("Error processing your OAuth request: Invalid oauth_verifier parameter".utf8))])
    do {
      _ = try await flow.accessToken(for: TemporaryCredentials(credentials: Credentials(key: "t", secret: "s")), verifier: "0000000")
      Issue.record("must fail")
    } catch {
      #expect(error.description.contains("Check the PIN"))
    }
  }

  @Test func anUnconfirmedCallbackOrAnEmptyAnswerIsRefused() async throws {
    let (unconfirmed, _) = flow([.status(200, body: Data("oauth_token=a&oauth_token_secret=b".utf8))])
    await #expect(throws: OAuthFlowError.self) { try await unconfirmed.requestToken() }
    let (empty, _) = flow([.status(200, body: Data("<html>hello</html>".utf8))])
    do {
      _ = try await empty.requestToken()
      Issue.record("must fail")
    } catch {
      guard case .malformedResponse = error else {
        Issue.record("\(error)")
        return
      }
    }
  }
}

/// The 1.0a token exchange follows no redirect: its requests carry the consumer's signature,
/// the request token and the verifier, for the provider's endpoint only (issue #35, item 4).
@Suite("OAuthFlow: no redirect")
struct OAuthFlowRedirectTests {
  @Test(arguments: [307, 308, 302])
  func neitherStepFollowsARedirect(status: Int) async throws {
    let location = "https://elsewhere.example.net:8443/collect?oauth_verifier=leak&x=1"
    let temporary = TemporaryCredentials(credentials: Credentials(key: "req", secret: "req-secret"))
    let steps: [(String, (OAuthFlow) async throws(OAuthFlowError) -> Void)] = [
      ("request_token", { flow throws(OAuthFlowError) in _ = try await flow.requestToken() }),
      ("access_token", { flow throws(OAuthFlowError) in _ = try await flow.accessToken(for: temporary, verifier: "1234567") }),
    ]
    for (name, step) in steps {
      let stub = StubTransport(
        [.status(status, headers: ["Location": location])],
        fallback: .status(200, body: Data("oauth_token=a&oauth_token_secret=b&oauth_callback_confirmed=true".utf8)))
      let flow = OAuthFlow(baseURL: URL(string: "https://api.example.com")!, consumer: Credentials(key: "ck", secret: "cs"), transport: stub)
      do {
        try await step(flow)
        Issue.record("\(name): a \(status) was followed")
      } catch {
        guard case .network(.redirect(let failure)) = error else {
          Issue.record("\(name): \(error)")
          continue
        }
        #expect(failure.reason == .refused)
        #expect(error.description.contains("HTTP \(status)") && error.description.contains("https://elsewhere.example.net:8443"), "\(error)")
        #expect(!error.description.contains("leak") && !error.description.contains("/collect"), "\(error)")
      }
      #expect(stub.requests.count == 1, "\(name): \(stub.requests.map(\.url))")
    }
  }
}
