import Foundation
import OAuth1
import TestSupport
import Testing
import XAPI
import XSandbox

/// `tweets sandbox serve --record-exchanges FILE`: every answer the server sends, as JSON lines,
/// a stream's line by line; never a request's credentials.
@Suite("The sandbox's exchange log", .tags(.processes), .tier(.processes))
struct SandboxExchangeLogTests {
  static func entries(_ file: URL) throws -> [[String: Any]] {
    try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
  }

  @Test("Answers, control refusals and a stream's lines are logged; no bearer token or signature is")
  func logsEveryAnswer() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("exchanges-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: file) }
    let sandbox = XSandbox(controlAPI: true, streamTimeScale: 0.01, streamRules: [(value: "from:swift_lang", tag: nil)])
    let server = try SandboxServer(sandbox: sandbox, exchangeLog: try SandboxExchangeLog(file: file, spelling: .tweet))
    defer { server.stop() }
    func exchange(_ head: String, body: String = "", read seconds: TimeInterval = 2) throws -> Data {
      let socket = try RawSocket(port: Int(server.port))
      defer { socket.close() }
      #expect(socket.send(head + "Host: 127.0.0.1:\(server.port)\r\n\r\n" + body))
      return socket.receive(timeout: seconds)
    }
    let bearer = "Authorization: Bearer \(XSandbox.demoBearerToken)\r\n"
    let user = try exchange("GET /2/users/by/username/swift_lang?user.fields=created_at HTTP/1.1\r\n\(bearer)Connection: close\r\n")
    #expect(RawSocket.status(of: user) == 200)
    #expect(RawSocket.status(of: try exchange("GET /_control/stats HTTP/1.1\r\nConnection: close\r\n")) == 401)
    let signed = "Authorization: OAuth oauth_consumer_key=\"sandbox-consumer-key\", oauth_signature=\"c2VjcmV0\"\r\n"
    #expect(RawSocket.status(of: try exchange("GET /2/users/me HTTP/1.1\r\n\(signed)Connection: close\r\n")) == 401)
    let basic = "Basic " + Data("sandbox-consumer-key:sandbox-consumer-secret".utf8).base64EncodedString()
    let form = "grant_type=client_credentials"
    let token = try exchange(
      "POST /oauth2/token HTTP/1.1\r\nAuthorization: \(basic)\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        + "Content-Length: \(form.utf8.count)\r\nConnection: close\r\n", body: form)
    #expect(String(decoding: token, as: UTF8.self).contains(XSandbox.demoBearerToken), "the token endpoint answered with the token")
    let stream = try exchange("GET /2/tweets/search/stream HTTP/1.1\r\n\(bearer)", read: 1.5)
    #expect(RawSocket.status(of: stream) == 200)

    let entries = try Self.entries(file)
    let found = try #require(entries.first { $0["path"] as? String == "/2/users/by/username/swift_lang" })
    #expect(found["method"] as? String == "GET" && found["query"] as? String == "user.fields=created_at" && found["status"] as? Int == 200)
    #expect(found["content_type"] as? String == "application/json; charset=utf-8" && (found["body"] as? String)?.contains("\"swift_lang\"") == true)
    #expect(entries.contains { $0["path"] as? String == "/_control/stats" && $0["status"] as? Int == 401 })
    let lines = entries.filter { $0["stream_line"] as? Bool == true }
    #expect(!lines.isEmpty && lines.allSatisfy { ($0["body"] as? String)?.hasPrefix("{\"data\":") == true }, "\(lines.count) stream lines")
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(!text.contains(XSandbox.demoBearerToken) && !text.contains("c2VjcmV0") && !text.contains("oauth_consumer_key"))
    #expect(entries.contains { $0["path"] as? String == "/oauth2/token" && $0["status"] as? Int == 200 && $0["withheld"] != nil })
  }

  /// Behind a base URL with a path of its own (`/x-api/`), the PIN flow's answers carried the
  /// request and access tokens' secrets into the log, which was 0644: only `/oauth/...` at the
  /// root was withheld (issue #43). Now any path through an `oauth` or `oauth2` segment is
  /// withheld, credential fields are redacted in every other body, and the file is 0600.
  @Test("The PIN flow under a base URL with a path leaves no token secret in the log, which only its owner reads")
  func tokenSecretsUnderABasePathAreWithheld() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("exchanges-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: file) }
    let sandbox = XSandbox()
    let server = try SandboxServer(sandbox: sandbox, exchangeLog: try SandboxExchangeLog(file: file, spelling: .tweet))
    defer { server.stop() }
    let base = try #require(URL(string: "http://127.0.0.1:\(server.port)/x-api/"))
    let login = XLogin(consumer: XSandbox.demoConsumer, baseURL: base)
    let pending = try await login.start()
    let pin = try #require(sandbox.pin(forRequestToken: pending.temporary.credentials.key))
    let account = try await login.finish(pending, pin: pin)

    let text = try String(contentsOf: file, encoding: .utf8)
    for secret in [pending.temporary.credentials.secret, account.credentials.secret, account.credentials.key, pin] {
      #expect(!text.contains(secret), "the log holds a credential: \(text)")
    }
    let entries = try Self.entries(file)
    #expect(entries.filter { ($0["path"] as? String)?.hasPrefix("/x-api/oauth/") == true && $0["withheld"] != nil }.count == 2, "\(entries)")
    let mode = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int)
    #expect(mode & 0o077 == 0, "the log is \(String(mode, radix: 8))")
  }

  @Test("Credential fields are redacted in any form or JSON body; other bodies stay byte for byte")
  func credentialFieldsAreRedactedAnywhere() throws {
    let form = Data("oauth_token=t&oauth_token_secret=s3cret&user_id=1".utf8)
    let (cleanForm, formFields) = SandboxExchangeLog.redacted(form)
    #expect(String(decoding: cleanForm, as: UTF8.self) == "oauth_token=%5Bwithheld%5D&oauth_token_secret=%5Bwithheld%5D&user_id=1")
    #expect(Set(formFields) == ["oauth_token", "oauth_token_secret"])
    let json = Data(#"{"token_type":"bearer","access_token":"AAAA","refresh_token":"BBBB","errors":[{"code":88}]}"#.utf8)
    let (cleanJSON, jsonFields) = SandboxExchangeLog.redacted(json)
    let text = String(decoding: cleanJSON, as: UTF8.self)
    #expect(!text.contains("AAAA") && !text.contains("BBBB") && text.contains(#""code":88"#), "\(text)")
    #expect(Set(jsonFields) == ["access_token", "refresh_token"])
    let plain = Data(#"{"data":{"id":"1","text":"a code of access"}}"#.utf8)
    #expect(SandboxExchangeLog.redacted(plain).0 == plain)
  }
}
