import Foundation
import NetworkClient
import NetworkClientTesting
import OAuth1
import OAuthNetworking
import TestSupport
import Testing

/// A multipart upload signed as RFC 5849 section 3.4.1.3.1 says: the query and the protocol
/// parameters only, never the body (OAuthSwift signed the body and got 401s: its #493, #536).
/// oauthlib, given the same request, computes the same signature.
@Suite("Signing a multipart upload", .tags(.peers), .tier(.peers))
struct MultipartSigningTests {
  @Test func theBodyIsNotSignedAndOAuthlibAgrees() async throws {
    let stub = StubTransport(fallback: .status(200))
    let consumer = Credentials(key: "consumer-key", secret: "consumer-secret"), token = Credentials(key: "1001-token", secret: "token-secret")
    let client = NetworkClient(
      baseURL: URL(string: "https://upload.example.test")!, behavior: OAuthRequestBehavior(consumer: consumer, token: token), transport: stub)
    let form = MultipartFormData([
      .text(name: "segment_index", value: "0"), .text(name: "oauth_like", value: "x y"),
      .data(name: "media", data: Data("GIF89a".utf8), filename: "a.gif", contentType: "image/gif"),
    ])
    _ = try await client.send(
      Request<Data>(method: .post, path: "2/media/upload/123/append", query: [("command", "APPEND"), ("note", "a+b c")], body: .multipart(form)))
    let sent = try #require(stub.requests.first)
    let header = try #require(sent.headers["Authorization"])
    let fields = try OAuthAuthorizationHeader.parse(header).parameters
    let signature = try #require(fields.first { $0.name == "oauth_signature" }?.value)
    let protocolParameters = fields.filter { $0.name != "oauth_signature" }.map { [$0.name, $0.value] }

    let body = String(decoding: try #require(sent.body), as: UTF8.self)
    let caseJSON: [String: Any] = [
      "id": "multipart", "method": "POST", "url": sent.url.absoluteString, "body": body, "content_type": form.contentType,
      "oauth_params": protocolParameters, "consumer_secret": consumer.secret, "token_secret": token.secret, "signature_method": "HMAC-SHA1",
      "client": false,
    ]
    let output = try await PythonPeer.run(script: "oauthlib_peer.py", input: try JSONSerialization.data(withJSONObject: [caseJSON]))
    let result = try #require((try JSONSerialization.jsonObject(with: output) as? [[String: Any]])?.first)
    #expect(result["error"] == nil, "\(result)")
    #expect(result["signature"] as? String == signature)
    let baseString = try #require(result["base_string"] as? String)
    #expect(baseString.contains("command%3DAPPEND") && baseString.contains("note%3Da%252Bb%2520c"))
    #expect(!baseString.contains("segment_index") && !baseString.contains("oauth_like"), "no part of the body is signed")
  }

  @Test func aBodyHashCannotCoverAStreamedFile() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("multipart-hash-\(UUID().uuidString)")
    try Data("video".utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let behavior = OAuthRequestBehavior(
      consumer: Credentials(key: "k", secret: "s"), token: nil, configuration: .init(signatureMethod: .hmacSHA256, bodyHash: .sha256))
    let client = NetworkClient(
      baseURL: URL(string: "https://api.example.test")!, behavior: behavior, transport: StubTransport(fallback: .status(200)))
    let form = MultipartFormData([.file(name: "media", url: file, filename: nil, contentType: "video/mp4")])
    await #expect {
      _ = try await client.send(Request<Data>(method: .post, path: "upload", body: .multipart(form)))
    } throws: { error in
      "\(error)".contains("oauth_body_hash cannot cover a body streamed from a file")
    }
  }

  /// Flickr signs an upload's text fields (upload.api.html): the profile says so, and oauthlib,
  /// given those fields as a form, computes the same signature; the photo is never signed.
  @Test func flickrsUploadSignsItsTextFields() async throws {
    let stub = StubTransport(fallback: .status(200))
    let consumer = Credentials(key: "flickr-key", secret: "flickr-secret"), token = Credentials(key: "72157-token", secret: "token-secret")
    let client = NetworkClient(
      baseURL: URL(string: "https://up.flickr.com")!, behavior: OAuthProvider.flickr.behavior(consumer: consumer, token: token), transport: stub)
    let form = MultipartFormData([
      .text(name: "title", value: "Fish & chips"), .text(name: "is_public", value: "0"),
      .data(name: "photo", data: Data("JPEG…".utf8), filename: "fish.jpg", contentType: "image/jpeg"),
    ])
    _ = try await client.send(Request<Data>(method: .post, path: "services/upload/", body: .multipart(form)))
    let sent = try #require(stub.requests.first)
    let fields = try OAuthAuthorizationHeader.parse(try #require(sent.headers["Authorization"])).parameters
    let signature = try #require(fields.first { $0.name == "oauth_signature" }?.value)
    let caseJSON: [String: Any] = [
      "id": "flickr", "method": "POST", "url": sent.url.absoluteString, "body": "title=Fish%20%26%20chips&is_public=0",
      "content_type": "application/x-www-form-urlencoded",
      "oauth_params": fields.filter { $0.name != "oauth_signature" }.map { [$0.name, $0.value] },
      "consumer_secret": consumer.secret, "token_secret": token.secret, "signature_method": "HMAC-SHA1", "client": false,
    ]
    let output = try await PythonPeer.run(script: "oauthlib_peer.py", input: try JSONSerialization.data(withJSONObject: [caseJSON]))
    let result = try #require((try JSONSerialization.jsonObject(with: output) as? [[String: Any]])?.first)
    #expect(result["signature"] as? String == signature, "\(result)")
    let baseString = try #require(result["base_string"] as? String)
    #expect(baseString.contains("title%3DFish%2520%2526%2520chips") && !baseString.contains("photo"))
  }
}
