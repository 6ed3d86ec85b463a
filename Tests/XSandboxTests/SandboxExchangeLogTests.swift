import Foundation
import OAuth1
import TestSupport
import Testing
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
}
