import Foundation
import NetworkClient
import OAuth1
import OAuth1Testing
import OAuthNetworking
import Testing
import XAPI
import XSandbox

/// Signatures are checked by `OAuthVerifier`, and refusals read as X's.
@Suite("XSandbox: authentication as X does it")
struct SandboxAuthenticationTests {
  @Test func pinFlowEndToEnd() async throws {
    let sandbox = XSandbox()
    let login = XLogin(consumer: XSandbox.demoConsumer, baseURL: XClient.defaultBaseURL, transport: sandbox)
    let pending = try await login.start()
    let requestToken = pending.temporary.credentials.key
    let pin = try #require(sandbox.pin(forRequestToken: requestToken))
    #expect(pin.count == 7 && pin.allSatisfy(\.isNumber))

    // The authorize page needs no signature and shows the same PIN.
    #expect(pending.authorizeURL.absoluteString == "https://api.x.com/oauth/authorize?oauth_token=\(requestToken)")
    let page = try await sandbox.send(HTTPRequest(method: .get, url: pending.authorizeURL))
    #expect(page.statusCode == 200 && page.headers["Content-Type"] == "text/html; charset=utf-8")
    #expect(page.text.contains("<code id=\"oauth_pin\">\(pin)</code>"))

    // A wrong PIN is refused with X's plain-text answer, and the request token survives it.
    do {
      _ = try await login.finish(pending, pin: pin == "1234567" ? "7654321" : "1234567")
      Issue.record("a wrong PIN was accepted")
    } catch {
      guard case .rejected(_, 401, let message, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(message == "Error processing your OAuth request: Invalid oauth_verifier parameter")
    }
    #expect(sandbox.pin(forRequestToken: requestToken) == pin)

    let account = try await login.finish(pending, pin: " \(pin)\n")
    #expect(account.userID == "1001" && account.screenName == "sandbox_user")
    #expect(account.credentials.key.hasPrefix("1001-") && account.credentials != XSandbox.demoAccessToken)

    // Request tokens are single-use.
    #expect(sandbox.pin(forRequestToken: requestToken) == nil)
    do {
      _ = try await login.finish(pending, pin: pin)
      Issue.record("a request token was exchanged twice")
    } catch {
      guard case .rejected(_, 401, _, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
    }

    // The new token works, here and in another sandbox (the next `tweets --sandbox` process).
    #expect(try await sandbox.client(token: account.credentials).v2.me().username == "sandbox_user")
    #expect(try await XSandbox().client(token: account.credentials).v1.verifyCredentials().id == "1001")
  }

  @Test func requestTokenNeedsACallbackAndTheRightConsumer() async throws {
    let sandbox = XSandbox()
    let unsigned = NetworkClient(
      baseURL: XClient.defaultBaseURL, behavior: OAuthRequestBehavior(consumer: XSandbox.demoConsumer), transport: sandbox)
    do {
      _ = try await unsigned.send(Request<HTTPResponse>(method: .post, path: "oauth/request_token"))
      Issue.record("a request token without oauth_callback")
    } catch {
      guard case .httpStatus(let failure) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(failure.statusCode == 401)
      #expect(String(decoding: failure.body, as: UTF8.self) == #"{"errors":[{"code":32,"message":"Could not authenticate you."}]}"#)
    }
    let impostor = XLogin(consumer: Credentials(key: XSandbox.demoConsumer.key, secret: "guessed"), transport: sandbox)
    do {
      _ = try await impostor.start()
      Issue.record("a wrong consumer secret got a request token")
    } catch {
      guard case .rejected(_, 401, let message, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(message.contains("code 32"))
    }
    #expect(sandbox.stats == (verified: 0, rejected: 2))
    #expect(sandbox.rejections == ["missing_callback": 1, "signature_invalid": 1])
  }

  @Test func wrongConsumerSecretCannotAuthenticate() async throws {
    let sandbox = XSandbox()
    let client = sandbox.client(consumer: Credentials(key: XSandbox.demoConsumer.key, secret: "not-the-secret"))
    guard case .couldNotAuthenticate = await xError({ _ = try await client.v1.verifyCredentials() }) else {
      Issue.record("v1.1")
      return
    }
    #expect(sandbox.stats.rejected == 1)
    guard case .unauthorized = await xError({ _ = try await client.v2.me() }) else {
      Issue.record("v2")
      return
    }
    #expect(sandbox.stats == (verified: 0, rejected: 2))
    #expect(sandbox.rejections == ["signature_invalid": 2])
    let stranger = sandbox.client(consumer: Credentials(key: "someone-elses-app", secret: "x"))
    guard case .couldNotAuthenticate = await xError({ _ = try await stranger.v1.verifyCredentials() }) else {
      Issue.record("unknown consumer")
      return
    }
    #expect(sandbox.rejections["consumer_key_unknown"] == 1)
    // The right credentials still work.
    #expect(try await sandbox.client().v2.me().id == "1001")
    #expect(sandbox.stats == (verified: 1, rejected: 3))
  }

  @Test func wrongTokenIsInvalidOrExpired() async throws {
    let sandbox = XSandbox()
    let client = sandbox.client(token: Credentials(key: "1001-made-up-token", secret: "whatever"))
    guard case .invalidOrExpiredToken(let message) = await xError({ _ = try await client.v1.verifyCredentials() }) else {
      Issue.record("v1.1")
      return
    }
    #expect(message == "Invalid or expired token.")
    // v2 does not say which check failed.
    guard case .unauthorized = await xError({ _ = try await client.v2.me() }) else {
      Issue.record("v2")
      return
    }
    // A token that merely looks issued is unknown too.
    let forged = sandbox.client(token: Credentials(key: "1001-" + String(repeating: "A", count: 30), secret: "whatever"))
    guard case .invalidOrExpiredToken = await xError({ _ = try await forged.v1.verifyCredentials() }) else {
      Issue.record("forged")
      return
    }
    // The right token with a wrong secret is a bad signature, and no token at all is refused.
    let wrongSecret = sandbox.client(token: Credentials(key: XSandbox.demoAccessToken.key, secret: "nope"))
    guard case .couldNotAuthenticate = await xError({ _ = try await wrongSecret.v1.verifyCredentials() }) else {
      Issue.record("secret")
      return
    }
    let appOnly = sandbox.client(token: nil)
    guard case .invalidOrExpiredToken = await xError({ _ = try await appOnly.v1.verifyCredentials() }) else {
      Issue.record("no token")
      return
    }
    #expect(sandbox.stats == (verified: 0, rejected: 5))
  }

  @Test func clockOffByAnHourIsTimestampOutOfBounds() async throws {
    let sandbox = XSandbox()
    let anHourAgo = Int64(Date().timeIntervalSince1970) - 3600
    let client = sandbox.client(configuration: .init(clock: FixedClock(seconds: anHourAgo)))
    guard case .timestampOutOfBounds(let skew) = await xError({ _ = try await client.v1.verifyCredentials() }) else {
      Issue.record("v1.1")
      return
    }
    // The sandbox's clock is this computer's: the skew is the time between its Date and the
    // answer's reading, seconds on a busy machine (5 s was passed there), never an hour.
    #expect(abs(try #require(skew)) < 120, "the sandbox's clock is this computer's")
    guard case .timestampOutOfBounds = await xError({ _ = try await client.v2.me() }) else {
      Issue.record("v2")
      return
    }
    #expect(sandbox.rejections == ["timestamp_refused": 2])

    // A sandbox an hour ahead says so in its Date header, which the client measures.
    let ahead = XSandbox(clock: FixedClock(seconds: Int64(Date().timeIntervalSince1970) + 3600))
    guard case .timestampOutOfBounds(let measured) = await xError({ _ = try await ahead.client().v2.me() }) else {
      Issue.record("ahead")
      return
    }
    #expect(abs(try #require(measured) - 3600) < 120)
  }

  @Test func bearerWorksForReadsButNotUserContext() async throws {
    let sandbox = XSandbox(tweetsPerUser: 15)
    let app = XClient(authentication: .bearer(XSandbox.demoBearerToken), transport: sandbox, retry: nil)
    let found = try await app.v2.searchRecent(query: "from:swift_lang").tweets().collect()
    #expect(found.count == 15 && found.allSatisfy { $0.author?.username == "swift_lang" })
    #expect(try await app.v2.tweet(id: found[0].id).text == found[0].text)
    #expect(try await app.v1.userTimeline(screenName: "swift_lang", limit: 3).tweets().collect().map(\.id) == found.prefix(3).map(\.id))
    guard case .api(403, _, let message, _) = await xError({ _ = try await app.v2.me() }) else {
      Issue.record("me")
      return
    }
    #expect(message.contains("Application-Only is forbidden"))
    guard case .api(403, _, _, _) = await xError({ _ = try await app.v2.homeTimeline(userID: "1001").tweets().collect() }) else {
      Issue.record("home")
      return
    }
    guard case .api(403, _, _, _) = await xError({ _ = try await app.v2.post(text: "hi") }) else {
      Issue.record("post")
      return
    }
    guard case .api(403, 220, _, _) = await xError({ _ = try await app.v1.updateStatus("hi") }) else {
      Issue.record("update")
      return
    }
    let wrong = XClient(authentication: .bearer("not-the-token"), transport: sandbox, retry: nil)
    guard case .unauthorized = await xError({ _ = try await wrong.v2.searchRecent(query: "swift").collect() }) else {
      Issue.record("wrong bearer")
      return
    }
    #expect(sandbox.stats == (verified: 0, rejected: 5))
    #expect(sandbox.rejections == ["app_only_forbidden": 4, "bearer_invalid": 1])
  }

  @Test func anyBaseURLVerifiesAgainstTheURLAsSent() async throws {
    let sandbox = XSandbox()
    let base = URL(string: "http://127.0.0.1:9/")!
    let client = sandbox.client(baseURL: base)
    #expect(try await client.v2.me().id == "1001")
    #expect(try await client.v1.search(query: "from:oauth_fan fact", limit: 3).tweets().collect().count == 3)
    let login = XLogin(consumer: XSandbox.demoConsumer, baseURL: base, transport: sandbox)
    let pending = try await login.start()
    #expect(pending.authorizeURL.absoluteString.hasPrefix("http://127.0.0.1:9/oauth/authorize?"))
    let account = try await login.finish(pending, pin: try #require(sandbox.pin(forRequestToken: pending.temporary.credentials.key)))
    #expect(try await sandbox.client(token: account.credentials, baseURL: base).v2.me().id == "1001")
    // PLAINTEXT is accepted over http: the sandbox never leaves the process.
    let plaintext = sandbox.client(configuration: .init(signatureMethod: .plaintext), baseURL: base)
    #expect(try await plaintext.v1.verifyCredentials().id == "1001")
    // A base URL with a path of its own works too.
    #expect(try await sandbox.client(baseURL: URL(string: "https://proxy.example/x-api/")!).v2.me().id == "1001")

    // The host is signed: a request signed for api.x.com but sent to api.twitter.com is refused.
    let moved = XClient(
      authentication: .oauth1(consumer: XSandbox.demoConsumer, token: XSandbox.demoAccessToken),
      transport: HostSwap(target: sandbox, from: "api.x.com", to: "api.twitter.com"), retry: nil)
    guard case .couldNotAuthenticate = await xError({ _ = try await moved.v1.verifyCredentials() }) else {
      Issue.record("moved")
      return
    }
    #expect(sandbox.rejections == ["signature_invalid": 1])
  }

  @Test func replayedNonceIsRefused() async throws {
    let sandbox = XSandbox()
    let now = Int64(Date().timeIntervalSince1970)
    let client = sandbox.client(configuration: .init(clock: FixedClock(seconds: now), nonceSource: RepeatedNonce("the-same-nonce")))
    #expect(try await client.v2.me().id == "1001")
    guard case .unauthorized = await xError({ _ = try await client.v2.me() }) else {
      Issue.record("replay")
      return
    }
    #expect(sandbox.rejections == ["nonce_used": 1])
  }

  @Test func unsignedRequestsGetXsAnswers() async throws {
    let sandbox = XSandbox()
    let v1 = try await sandbox.raw(.get, "https://api.x.com/1.1/account/verify_credentials.json")
    #expect(v1.statusCode == 400 && v1.text == #"{"errors":[{"code":215,"message":"Bad Authentication data."}]}"#)
    #expect(v1.headers["Content-Type"] == "application/json;charset=utf-8" && v1.headers["Date"] != nil)
    guard case .badAuthenticationData = XError(.httpStatus(HTTPStatusFailure(response: v1))) else {
      Issue.record("215")
      return
    }
    let v2 = try await sandbox.raw(.get, "https://api.x.com/2/users/me")
    #expect(v2.statusCode == 401 && v2.text == #"{"title":"Unauthorized","type":"about:blank","status":401,"detail":"Unauthorized"}"#)
    #expect(v2.headers["Content-Type"] == "application/json; charset=utf-8" && v2.headers["Date"] != nil)
    let garbage = try await sandbox.raw(
      .get, "https://api.x.com/1.1/account/verify_credentials.json", authorization: "OAuth oauth_consumer_key=\"x\"")
    #expect(garbage.statusCode == 401 && garbage.text.contains("\"code\":32"))
    #expect(sandbox.stats == (verified: 0, rejected: 3))
  }
}

/// Delivers requests to another host than the one they were signed for.
struct HostSwap: HTTPTransport {
  let target: XSandbox
  let from: String
  let to: String

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    var moved = request
    moved.url = URL(string: request.url.absoluteString.replacingOccurrences(of: from, with: to))!
    return try await target.send(moved)
  }
}
