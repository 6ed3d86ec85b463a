import Foundation
import NetworkClient
import NetworkClientTesting
import TestSupport
import Testing

// The sample of the article "Building a client for your API"
// (Sources/NetworkClient/NetworkClient.docc/BuildingAnAPIClient.md), verbatim from `struct Note`
// to the last line of `NotesAPI`, so that it keeps compiling; the test below runs it on a stub
// transport.

struct Note: Decodable, Sendable {
  let id: Int
  let text: String
}

/// Sends the app's name and version with every request.
struct UserAgent: RequestBehavior {
  var additionalHeaders: HTTPHeaders { ["User-Agent": "notes-app/1.0"] }
}

/// Adds the API key to every request, as the provider asks.
struct APIKey: RequestBehavior {
  let key: String
  func modify(_ request: HTTPRequest) async throws -> HTTPRequest {
    var request = request
    request.headers["X-API-Key"] = key
    return request
  }
}

struct NotesAPI {
  let client: NetworkClient

  init(key: String, transport: any HTTPTransport = DefaultTransport()) {
    client = NetworkClient(
      configuration: RequestConfiguration(
        baseURL: URL(string: "https://notes.example.com/v1")!,
        defaultBehavior: CombinedRequestBehavior([UserAgent(), APIKey(key: key), RetryBehavior()]),
        transport: transport))
  }

  func notes(tagged tag: String) async throws(NetworkError) -> [Note] {
    try await client.send(Request<[Note]>(path: "notes", query: [("tag", tag)]))
  }

  func add(_ text: String) async throws(NetworkError) -> Note {
    try await client.send(Request<Note>(method: .post, path: "notes", body: .form([("text", text)])))
  }
}

@Suite("Article: building a client for your API")
struct APIClientArticleSampleTests {
  @Test func theSampleWorks() async throws {
    let stub = StubTransport([.json(#"[{"id":1,"text":"milk"}]"#), .json(#"{"id":2,"text":"eggs + ham"}"#, status: 201)])
    let api = NotesAPI(key: "k-123", transport: stub)
    #expect(try await api.notes(tagged: "shopping list").map(\.text) == ["milk"])
    #expect(try await api.add("eggs + ham").id == 2)
    #expect(stub.requests[0].url.absoluteString == "https://notes.example.com/v1/notes?tag=shopping%20list")
    #expect(stub.requests.allSatisfy { $0.headers["User-Agent"] == "notes-app/1.0" && $0.headers["X-API-Key"] == "k-123" })
    #expect(stub.requests[1].body == Data("text=eggs%20%2B%20ham".utf8))
  }

  /// The test-doubles sample of README.md and of the article "Retries, redirects and errors"
  /// (Sources/NetworkClient/NetworkClient.docc/RetriesAndRedirects.md), run as written.
  @Test func theTestDoublesSampleWorks() async throws {
    let stub = StubTransport([.status(503, headers: ["Retry-After": "1"]), .json(#"{"id":"1"}"#)])
    let sleeper = RecordingSleeper()
    let client = NetworkClient(
      baseURL: URL(string: "https://api.example.com")!,
      behavior: RetryBehavior(sleeper: sleeper), transport: stub)
    _ = try await client.send(Request<Data>(path: "items/1"))
    #expect(stub.requests.count == 2)
    #expect(sleeper.waits == [1.0])
  }

  /// The sample in the article is the same text as above (whitespace aside).
  @Test func theArticleShowsThisCode() throws {
    let sample = try DocumentedSample(in: #filePath, from: "struct Note: Decodable", to: "@Suite(\"Article", includingBegin: true)
    #expect(try sample.documentsNotShowingIt(["Sources/NetworkClient/NetworkClient.docc/BuildingAnAPIClient.md"]).isEmpty)
  }

  /// README.md and RetriesAndRedirects.md show the test-doubles sample as run above (whitespace aside).
  @Test func theReadmeAndTheArticleShowTheTestDoublesSample() throws {
    let sample = try DocumentedSample(
      in: #filePath, from: "    let stub = StubTransport([.status(503", to: "    #expect(stub.requests.count == 2)", includingBegin: true)
    #expect(try sample.documentsNotShowingIt(["README.md", "Sources/NetworkClient/NetworkClient.docc/RetriesAndRedirects.md"]).isEmpty)
  }
}
