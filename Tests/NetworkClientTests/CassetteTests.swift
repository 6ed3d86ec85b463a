import Foundation
import NetworkClient
import NetworkClientTesting
import Testing

/// What a cassette keeps and what it redacts, exchange by exchange.
@Suite("Cassettes")
struct CassetteTests {
  let request = HTTPRequest(
    method: .post, url: URL(string: "https://api.example.com/oauth/access_token?oauth_verifier=1234567&page=2")!,
    headers: ["Authorization": #"OAuth oauth_token="t", oauth_signature="c2ln""#, "Content-Type": "application/x-www-form-urlencoded"],
    body: Data("x_auth_password=hunter2&name=ann".utf8))

  @Test func secretsAreRedactedAsRecorded() throws {
    let response = HTTPResponse(
      statusCode: 302,
      headers: [
        "Location": "https://app.example/callback?oauth_token=t&oauth_verifier=v", "Set-Cookie": "session=s", "Content-Type": "application/json",
      ],
      body: Data(#"{"access_token_secret":"s1","bearer_token":"b1","meta":{"next_token":"page2"},"data":{"name":"ann"}}"#.utf8), request: request)
    let interaction = Cassette.interaction(request, response)
    let text = String(decoding: try Cassette(interactions: [interaction]).encoded(), as: UTF8.self)
    for secret in ["hunter2", "c2ln", "1234567", "oauth_verifier=v", "session=s", "\"s1\"", "\"b1\""] {
      #expect(!text.contains(secret), "the cassette keeps \(secret)")
    }
    // What is not secret stays, to be read and matched.
    #expect(text.contains("page2") && text.contains("name=ann") && text.contains("page=2"))
  }

  @Test func replayMatchesWhatRecordingRedacted() async throws {
    let response = HTTPResponse(statusCode: 200, body: Data("ok".utf8), request: request)
    let replay = ReplayTransport(Cassette(interactions: [Cassette.interaction(request, response)]))
    // The live request carries the real verifier; the cassette, its redaction: they still match.
    let answer = try await replay.send(request)
    #expect(answer.statusCode == 200 && answer.body == Data("ok".utf8))
    await #expect(throws: ReplayTransport.NoRecording.self) { _ = try await replay.send(request) }
  }
}
