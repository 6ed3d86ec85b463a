import Foundation
import NetworkClient
import NetworkClientTesting
import Testing

/// Redirects are followed by the client, each hop through the behaviors, with credentials kept
/// to the request's own origin (see `RedirectPolicy`).
@Suite("Redirects")
struct RedirectTests {
  /// Signs with the URL it signs for, so a stale signature shows.
  struct URLSigner: RequestBehavior {
    var isSigner: Bool { true }
    func modify(_ request: HTTPRequest) async throws -> HTTPRequest {
      var request = request
      request.headers["Authorization"] = "Signed \(request.method) \(request.url.absoluteString)"
      return request
    }
  }

  /// An API key and a cookie, the key marked as a credential.
  struct APIKey: RequestBehavior {
    var credentialHeaders: [String] { ["X-Api-Key"] }
    func modify(_ request: HTTPRequest) async throws -> HTTPRequest {
      var request = request
      request.headers["X-Api-Key"] = "key-123"
      request.headers["Cookie"] = "session=abc"
      request.headers["X-Trace"] = "kept"
      return request
    }
  }

  static func redirect(_ status: Int, to location: String) -> StubTransport.Reply {
    .status(status, headers: ["Location": location])
  }

  func send(
    _ stub: StubTransport, _ request: Request<Data>, policy: RedirectPolicy = .default, behaviors: [any RequestBehavior] = [APIKey(), URLSigner()]
  ) async throws(NetworkError) -> Response<Data> {
    let client = NetworkClient(
      configuration: RequestConfiguration(
        baseURL: api, defaultBehavior: CombinedRequestBehavior(behaviors), transport: stub, redirects: policy))
    return try await client.response(for: request)
  }

  @Test func aSameOriginRedirectIsSignedForTheURLActuallyRequested() async throws {
    let stub = StubTransport([Self.redirect(307, to: "/2/moved?page=2"), .status(200)])
    let response = try await send(stub, Request<Data>(path: "items", query: [("page", "2")]))
    #expect(
      stub.requests.map { $0.headers["Authorization"] } == [
        "Signed GET https://api.example.com/2/items?page=2", "Signed GET https://api.example.com/2/moved?page=2",
      ])
    #expect(stub.requests.allSatisfy { $0.headers["X-Api-Key"] == "key-123" })
    #expect(
      response.response.request.redirections == [
        Redirection(
          statusCode: 307, from: URL(string: "https://api.example.com/2/items?page=2")!,
          to: URL(string: "https://api.example.com/2/moved?page=2")!, keptCredentials: true)
      ])
    #expect(Set(stub.requests.map(\.id)).count == 1, "every hop belongs to one call")
  }

  @Test func methodAndBodyPerStatus() async throws {
    let form = Request<Data>(method: .post, path: "items", body: .form([("a", "1")]))
    for status in [307, 308] {
      let stub = StubTransport([Self.redirect(status, to: "https://api.example.com/2/new"), .status(201)])
      _ = try await send(stub, form)
      let hop = try #require(stub.requests.last)
      #expect(hop.method == .post && hop.body == Data("a=1".utf8) && hop.headers["Content-Type"] == "application/x-www-form-urlencoded")
      #expect(hop.headers["Authorization"] == "Signed POST https://api.example.com/2/new")
    }

    let seeOther = StubTransport([Self.redirect(303, to: "/2/result/9"), .status(200)])
    _ = try await send(seeOther, form)
    let hop = try #require(seeOther.requests.last)
    #expect(hop.method == .get && hop.body == nil && hop.headers["Content-Type"] == nil, "303 becomes a GET without a body")

    for status in [301, 302] {
      let get = StubTransport([Self.redirect(status, to: "/2/other"), .status(200)])
      _ = try await send(get, Request<Data>(path: "items"))
      #expect(get.requests.map(\.method) == [.get, .get])

      let post = StubTransport([Self.redirect(status, to: "/2/other"), .status(200)])
      do {
        _ = try await send(post, form)
        Issue.record("a \(status) of a POST must not be followed")
      } catch {
        guard case .redirect(let failure) = error else {
          Issue.record("\(error)")
          continue
        }
        #expect(failure.reason == .methodNotRepeatable)
        #expect(failure.description.contains("POST https://api.example.com/2/items was redirected (HTTP \(status)) to /2/other"), "\(failure)")
      }
      #expect(post.requests.count == 1)
    }
  }

  @Test func anotherOriginGetsNoCredentials() async throws {
    let stub = StubTransport([Self.redirect(307, to: "https://elsewhere.example.net/items"), .status(401)])
    do {
      _ = try await send(stub, Request<Data>(path: "items"))
      Issue.record("the other origin answered 401")
    } catch {
      guard case .httpStatus(let failure) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(failure.lostCredentialsInRedirect)
      #expect(
        failure.description.contains(
          "GET https://elsewhere.example.net/items (redirected from https://api.example.com/2/items to https://elsewhere.example.net/items, another origin, so without the credentials"
        ),
        "\(failure)")
    }
    let hop = try #require(stub.requests.last)
    #expect(hop.headers["Authorization"] == nil && hop.headers["X-Api-Key"] == nil && hop.headers["Cookie"] == nil)
    #expect(hop.headers["X-Trace"] == "kept", "behaviors that are not credentials still run")

    // The port and the scheme are part of the origin too: http → https of one host is another origin.
    for (base, target) in [
      ("https://api.example.com/2", "https://api.example.com:8443/2/items"), ("http://api.example.com/2", "https://api.example.com/2/items"),
    ] {
      let other = StubTransport([Self.redirect(308, to: target), .status(200)])
      let client = NetworkClient(configuration: RequestConfiguration(baseURL: URL(string: base)!, defaultBehavior: URLSigner(), transport: other))
      _ = try await client.send(Request<Data>(path: "items"))
      #expect(other.requests.map { $0.headers["Authorization"] != nil } == [true, false], "\(base) → \(target)")
    }
  }

  @Test func aTrustedOriginKeepsThem() async throws {
    let stub = StubTransport([Self.redirect(307, to: "https://upload.example.com/items"), .status(200)])
    _ = try await send(
      stub, Request<Data>(path: "items"), policy: RedirectPolicy(trustedOrigins: [HTTPOrigin(scheme: "https", host: "upload.example.com")]))
    #expect(stub.requests.last?.headers["Authorization"] == "Signed GET https://upload.example.com/items")
    #expect(stub.requests.last?.headers["X-Api-Key"] == "key-123")
  }

  @Test func credentialsDroppedOnceStayDropped() async throws {
    let stub = StubTransport([
      Self.redirect(307, to: "https://elsewhere.example.net/a"), Self.redirect(307, to: "https://api.example.com/2/b"), .status(200),
    ])
    _ = try await send(stub, Request<Data>(path: "items"))
    #expect(stub.requests.map { $0.headers["Authorization"] != nil } == [true, false, false], "the other origin chose the last URL")
  }

  @Test func refusedRedirects() async throws {
    func reason(_ replies: [StubTransport.Reply], base: String = "https://api.example.com/2") async -> RedirectFailure.Reason? {
      let stub = StubTransport(replies)
      let client = NetworkClient(configuration: RequestConfiguration(baseURL: URL(string: base)!, defaultBehavior: URLSigner(), transport: stub))
      do {
        _ = try await client.send(Request<Data>(path: "items"))
      } catch {
        if case .redirect(let failure) = error { return failure.reason }
      }
      return nil
    }
    #expect(await reason([Self.redirect(301, to: "http://api.example.com/2/items")]) == .insecure)
    #expect(await reason([Self.redirect(302, to: "ftp://api.example.com/items")]) == .unsupportedLocation)
    let loop = Array(repeating: Self.redirect(307, to: "/2/items"), count: 10)
    #expect(await reason(loop) == .tooMany(limit: 5))
    // http → https is an upgrade, not a refusal.
    #expect(await reason([Self.redirect(301, to: "https://api.example.com/2/items"), .status(200)], base: "http://api.example.com/2") == nil)
  }

  @Test func aClientThatFollowsNoRedirectsSeesTheAnswer() async throws {
    let stub = StubTransport([Self.redirect(307, to: "/2/new")])
    do {
      _ = try await send(stub, Request<Data>(path: "items"), policy: .none)
      Issue.record("a 307 is not 2xx")
    } catch {
      #expect(error.statusCode == 307)
      if case .httpStatus(let failure) = error { #expect(failure.headers["Location"] == "/2/new") }
    }
    #expect(stub.requests.count == 1)
  }

  @Test func theLogSaysWhereARequestWasRedirected() async throws {
    let lines = EventLog()
    let stub = StubTransport([Self.redirect(307, to: "https://elsewhere.example.net/x?oauth_token=abc"), .status(200)])
    _ = try await send(stub, Request<Data>(path: "items"), behaviors: [LoggingBehavior { lines.add($0) }, URLSigner()])
    let log = lines.events.joined(separator: "\n")
    #expect(
      log.contains(
        "↪ 307: redirected from https://api.example.com/2/items to https://elsewhere.example.net/x?oauth_token=<redacted> (another origin: sent without credentials)"
      ),
      "\(log)")
  }
}
