import Foundation
import NetworkClient
import Testing

@Suite("Redaction")
struct RedactionTests {
  @Test func urlsKeepHarmlessParameters() {
    #expect(
      Redaction.url("https://a.example/x?oauth_signature=abc%3D&oauth_nonce=n&oauth_token=t#f")
        == "https://a.example/x?oauth_signature=<redacted>&oauth_nonce=n&oauth_token=<redacted>#f")
    #expect(Redaction.url("https://a.example/x") == "https://a.example/x")
  }

  @Test func formBodiesAndFreeText() {
    #expect(Redaction.form("oauth_token=a&oauth_token_secret=b&user_id=1") == "oauth_token=<redacted>&oauth_token_secret=<redacted>&user_id=1")
    // An OAuth header value runs to the end of its line.
    let text = Redaction.text("header was OAuth oauth_consumer_key=\"k\", oauth_signature=\"s\"\n" + #"{"access_token": "xyz", "id": "1"}"#)
    #expect(!text.contains("xyz") && !text.contains(#"oauth_signature="s""#))
    #expect(text.contains(#""id": "1""#))
    #expect(
      Redaction.text("Error processing your OAuth request: Invalid oauth_verifier parameter")
        == "Error processing your OAuth request: Invalid oauth_verifier parameter")
    #expect(Redaction.text("Bearer AAAA-token\nnext line") == "Bearer <redacted>\nnext line")
  }

  @Test func headers() {
    let redacted = Redaction.headers(["Authorization": "OAuth x", "Accept": "json", "cookie": "c"])
    #expect(redacted["authorization"] == "<redacted>" && redacted["Cookie"] == "<redacted>" && redacted["Accept"] == "json")
  }
}
