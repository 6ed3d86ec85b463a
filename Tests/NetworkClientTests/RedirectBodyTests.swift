import Foundation
import NetworkClient
import NetworkClientTesting
import Testing

/// A body goes to another origin only when the caller said it may: a 307 or 308 to another
/// origin of a request with a body is refused (issue #35, item 4: a token grant's body, with its
/// refresh token, followed a 307 to another port).
@Suite("Redirects: bodies stay with their origin")
struct RedirectBodyTests {
  let api = URL(string: "https://api.example.com/2")!
  static let secretForm = Request<Data>(method: .post, path: "token", body: .form([("grant_type", "refresh_token"), ("refresh_token", "R-secret")]))

  func client(_ stub: StubTransport, policy: RedirectPolicy = .default) -> NetworkClient {
    NetworkClient(configuration: RequestConfiguration(baseURL: api, transport: stub, redirects: policy))
  }

  /// The redirect failure `request` ends with, or `nil` when it did not end with one.
  func failure(_ stub: StubTransport, _ request: Request<Data>, policy: RedirectPolicy = .default) async -> RedirectFailure? {
    do {
      _ = try await client(stub, policy: policy).send(request)
    } catch {
      if case .redirect(let failure) = error { return failure }
      Issue.record("not a redirect failure: \(error)")
    }
    return nil
  }

  @Test(arguments: [307, 308])
  func aBodyIsNotReplayedToAnotherOrigin(status: Int) async throws {
    for target in ["https://elsewhere.example.net/collect?x=1", "https://api.example.com:8443/2/token", "https://127.0.0.1:9/steal"] {
      let stub = StubTransport([.status(status, headers: ["Location": target])], fallback: .status(200))
      let failure = await failure(stub, Self.secretForm)
      #expect(stub.requests.count == 1, "\(status) to \(target): the body went to \(stub.requests.dropFirst().map(\.url))")
      #expect(failure?.reason == .bodyToAnotherOrigin, "\(String(describing: failure))")
      let text = failure.map(String.init(describing:)) ?? ""
      #expect(text.contains("HTTP \(status)") && text.contains("RedirectPolicy(bodyOrigins:"), "\(text)")
      #expect(!text.contains("R-secret"))
    }
  }

  @Test func aStreamedFileBodyIsNotReplayedToAnotherOriginEither() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("redirect-body-\(UUID().uuidString)")
    try Data("secret file".utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let form = MultipartFormData([.file(name: "media", url: file, filename: "a.bin", contentType: "application/octet-stream")])
    let stub = StubTransport([.status(308, headers: ["Location": "https://upload.example.net/in"])], fallback: .status(200))
    let failure = await failure(stub, Request<Data>(method: .post, path: "upload", body: .multipart(form)))
    #expect(stub.requests.count == 1 && failure?.reason == .bodyToAnotherOrigin)
  }

  @Test func theSameOriginKeepsTheBodyAndAnOptInLetsItGo() async throws {
    let same = StubTransport([.status(307, headers: ["Location": "/2/token2"]), .status(200)])
    _ = try await client(same).send(Self.secretForm)
    #expect(
      same.requests.map { $0.body } == [
        Data("grant_type=refresh_token&refresh_token=R-secret".utf8), Data("grant_type=refresh_token&refresh_token=R-secret".utf8),
      ])

    // Marked safe: the body goes, still without credentials (the origin is not trusted with them).
    let upload = HTTPOrigin(scheme: "https", host: "upload.example.net")
    let optedIn = StubTransport([.status(307, headers: ["Location": "https://upload.example.net/in"]), .status(200)])
    let signed = CombinedRequestBehavior([HeadersBehavior(["Authorization": "Bearer T"])])
    let client = NetworkClient(
      configuration: RequestConfiguration(baseURL: api, defaultBehavior: signed, transport: optedIn, redirects: RedirectPolicy(bodyOrigins: [upload]))
    )
    _ = try await client.send(Self.secretForm)
    #expect(optedIn.requests.count == 2 && optedIn.requests[1].body == optedIn.requests[0].body)
    #expect(optedIn.requests[1].headers["Authorization"] == nil, "a body origin is not a trusted origin")

    // A trusted origin is not a body origin: credentials may go, the body may not unless marked.
    let trusted = StubTransport([.status(307, headers: ["Location": "https://upload.example.net/in"])], fallback: .status(200))
    #expect(await failure(trusted, Self.secretForm, policy: RedirectPolicy(trustedOrigins: [upload]))?.reason == .bodyToAnotherOrigin)
  }

  @Test func a303DropsTheBodySoItMayGoAnywhere() async throws {
    let stub = StubTransport([.status(303, headers: ["Location": "https://elsewhere.example.net/result"]), .status(200)])
    _ = try await client(stub).send(Self.secretForm)
    #expect(stub.requests.count == 2 && stub.requests[1].body == nil && stub.requests[1].method == .get)
  }

  @Test func refusingEveryRedirectNamesTheStatusAndTheOriginOnly() async throws {
    for (status, location) in [(307, "https://evil.example:8443/c?refresh_token=R-secret&x=1"), (302, "/2/moved?code=abc"), (308, "not a url ://")] {
      let stub = StubTransport([.status(status, headers: ["Location": location])], fallback: .status(200))
      let failure = await failure(stub, Self.secretForm, policy: .refuse)
      #expect(stub.requests.count == 1)
      #expect(failure?.reason == .refused)
      let text = failure.map(String.init(describing:)) ?? ""
      #expect(text.contains("HTTP \(status)"), "\(text)")
      #expect(!text.contains("R-secret") && !text.contains("refresh_token") && !text.contains("code=") && !text.contains("/c?"), "\(text)")
    }
    let stub = StubTransport([.status(307, headers: ["Location": "https://evil.example:8443/c?refresh_token=R"])])
    let text = await failure(stub, Self.secretForm, policy: .refuse).map(String.init(describing:)) ?? ""
    #expect(text.contains("https://evil.example:8443"), "\(text)")
  }
}
