import Foundation
import TestSupport
import Testing

/// `oauth1 serve --profile NAME` behaving as NetSuite, Jira and Mastercard, each judged with an
/// independent client, Python's requests-oauthlib (pinned): what the provider's own clients send
/// is accepted, what it refuses is refused in its terms.
@Suite("oauth1 serve --profile against requests-oauthlib", .tags(.peers, .processes), .tier(.peers, .processes))
struct ServeProfileTests {
  /// Sends `requests` (Tests/Peers/serve_profile_client.py) to `server`; the answers by name.
  func send(_ requests: [[String: Any]], to server: LoopbackServer) async throws -> [String: [String: Any]] {
    let input = try JSONSerialization.data(withJSONObject: ["base_url": server.baseURL.absoluteString, "requests": requests])
    let output = try await PythonPeer.run(script: "serve_profile_client.py", input: input, requirements: .requestsOAuthlib)
    let answers = try #require(try JSONSerialization.jsonObject(with: output) as? [[String: Any]])
    return Dictionary(uniqueKeysWithValues: answers.map { ($0["name"] as? String ?? "", $0) })
  }

  /// A form body's fields, decoded.
  func form(_ text: String) -> [String: String] {
    var fields: [String: String] = [:]
    for pair in text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
        String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
      }
      fields[parts[0]] = parts.count > 1 ? parts[1] : ""
    }
    return fields
  }

  func json(_ text: Any?) -> [String: Any] {
    (text as? String).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } ?? [:]
  }

  @Test func netSuiteTakesHMACSHA256WithItsRealmOnly() async throws {
    let server = try await ServeProcess.start([
      "--profile", "netsuite", "--site", "123456_SB1", "--consumer-key", "ck", "--consumer-secret", "cs", "--token", "tk", "--token-secret", "ts",
    ])
    defer { server.stop() }
    let auth: [String: Any] = [
      "client_key": "ck", "client_secret": "cs", "resource_owner_key": "tk", "resource_owner_secret": "ts", "realm": "123456_SB1",
    ]
    let answers = try await send(
      [
        [
          "name": "sha256", "method": "GET", "path": "/services/rest/record/v1/customer?limit=5",
          "auth": auth.merging(["signature_method": "HMAC-SHA256"]) { $1 },
        ],
        [
          "name": "sha1", "method": "GET", "path": "/services/rest/record/v1/customer",
          "auth": auth.merging(["signature_method": "HMAC-SHA1"]) { $1 },
        ],
      ], to: server)
    let accepted = try #require(answers["sha256"])
    #expect(accepted["status"] as? Int == 200, "\(accepted)")
    let verdict = json(accepted["body"])
    #expect(verdict["valid"] as? Bool == true && verdict["realm"] as? String == "123456_SB1", "\(verdict)")
    #expect(verdict["base_string"] as? String == accepted["oauthlib_base_string"] as? String)

    let refused = try #require(answers["sha1"])
    #expect(refused["status"] as? Int == 400 || refused["status"] as? Int == 401, "\(refused)")
    #expect(json(refused["body"])["oauth_problem"] as? String == "signature_method_rejected", "\(refused)")
    #expect((refused["www_authenticate"] as? String)?.contains(#"realm="123456_SB1""#) == true, "\(refused)")
  }

  @Test func jiraAnswersAtItsPathsAndRefusesWithItsBaseString() async throws {
    let keys = try await RSAKeyPair.generate()
    defer { try? FileManager.default.removeItem(at: keys.folder) }
    let server = try await ServeProcess.start([
      "--profile", "jira", "--consumer-key", "jira-app", "--rsa-public-key", keys.publicKey.path, "--token", "tk", "--token-secret", "unused",
    ])
    defer { server.stop() }
    let pem = try String(contentsOf: keys.privateKey, encoding: .utf8)
    let auth: [String: Any] = ["client_key": "jira-app", "signature_method": "RSA-SHA1", "rsa_key": pem]
    let answers = try await send(
      [
        [
          "name": "request token", "method": "POST", "path": "/plugins/servlet/oauth/request-token",
          "auth": auth.merging(["callback_uri": "oob"]) { $1 },
        ],
        [
          "name": "tampered", "method": "GET", "path": "/rest/api/2/myself", "tamper_path": "/rest/api/2/myself?expand=groups",
          "auth": auth.merging(["resource_owner_key": "tk"]) { $1 },
        ],
        [
          "name": "hmac", "method": "GET", "path": "/rest/api/2/myself",
          "auth": ["client_key": "jira-app", "client_secret": "s", "resource_owner_key": "tk", "resource_owner_secret": "unused"],
        ],
      ], to: server)
    let temporary = try #require(answers["request token"])
    #expect(temporary["status"] as? Int == 200, "\(temporary)")
    #expect(form(temporary["body"] as? String ?? "")["oauth_callback_confirmed"] == "true", "\(temporary)")

    let tampered = try #require(answers["tampered"])
    #expect(tampered["status"] as? Int == 401, "\(tampered)")
    #expect((tampered["content_type"] as? String)?.hasPrefix("application/x-www-form-urlencoded") == true, "\(tampered)")
    let problem = form(tampered["body"] as? String ?? "")
    #expect(problem["oauth_problem"] == "signature_invalid", "\(tampered)")
    #expect((tampered["www_authenticate"] as? String)?.contains(#"oauth_problem="signature_invalid""#) == true, "\(tampered)")
    #expect(problem["oauth_signature_base_string"] == tampered["oauthlib_base_string"] as? String, "\(tampered)")

    let hmac = try #require(answers["hmac"])
    #expect(form(hmac["body"] as? String ?? "")["oauth_problem"] == "signature_method_rejected", "\(hmac)")
  }

  @Test func mastercardRequiresABodyHash() async throws {
    let keys = try await RSAKeyPair.generate()
    defer { try? FileManager.default.removeItem(at: keys.folder) }
    let server = try await ServeProcess.start(["--profile", "mastercard", "--consumer-key", "mc-key", "--rsa-public-key", keys.publicKey.path])
    defer { server.stop() }
    let pem = try String(contentsOf: keys.privateKey, encoding: .utf8)
    let answers = try await send(
      [
        [
          "name": "no body hash", "method": "POST", "path": "/fraud/merchant/v3/termination-inquiry", "body": #"{"merchant":{}}"#,
          "content_type": "application/json", "auth": ["client_key": "mc-key", "signature_method": "RSA-SHA256", "rsa_key": pem],
        ]
      ], to: server)
    let refused = try #require(answers["no body hash"])
    #expect(refused["status"] as? Int == 400, "\(refused)")
    let body = json(refused["body"])
    #expect(body["oauth_problem"] as? String == "parameter_absent" && body["oauth_parameters_absent"] as? [String] == ["oauth_body_hash"], "\(body)")

    // The package's own client, with Mastercard's profile, sends the body hash and is accepted.
    let request = try await oauth1([
      "request", "POST", server.baseURL.absoluteString + "/fraud/merchant/v3/termination-inquiry", "--provider", "mastercard", "--site",
      server.baseURL.absoluteString, "--consumer-key", "mc-key", "--private-key", keys.privateKey.path, "--json", #"{"merchant":{}}"#,
    ])
    #expect(request.status == 0, "\(request.stderr)")
    #expect(json(request.stdout)["valid"] as? Bool == true, "\(request.stdout)")
  }

  @Test func anUnknownProfileIsAUsageError() async throws {
    let result = try await oauth1(["serve", "--profile", "nope", "--consumer-key", "k", "--consumer-secret", "s"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("--profile: no provider is named \"nope\""), "\(result.stderr)")
  }
}
