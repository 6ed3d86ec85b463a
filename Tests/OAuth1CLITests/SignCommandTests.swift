import Foundation
import TestSupport
import Testing

@Suite("oauth1 sign, end to end", .tags(.processes), .tier(.processes))
struct SignCommandTests {
  static let jsonKeys: Set = [
    "base_string_uri", "parameters", "normalized_parameters", "signature_base_string", "signing_key", "signature",
    "authorization_header",
  ]

  @Test func twitterExampleReproducesThePublishedSignature() async throws {
    let json = try await signJSON(["--example", "twitter"])
    #expect(Set(json.keys) == Self.jsonKeys)
    #expect(json["signature"] as? String == "hCtSmYh+iHYCEqBWrE7C7hYmtUk=")
    #expect(json["base_string_uri"] as? String == "https://api.twitter.com/1.1/statuses/update.json")
    #expect((json["authorization_header"] as? String)?.contains(#"oauth_signature="hCtSmYh%2BiHYCEqBWrE7C7hYmtUk%3D""#) == true)
    let parameters = try #require(json["parameters"] as? [[String]])
    #expect(parameters.first == ["include_entities", "true"])
    #expect(parameters.last == ["status", "Hello Ladies + Gentlemen, a signed OAuth request!"])
  }

  @Test func humanOutputShowsEveryStageAndTheVerdict() async throws {
    let result = try await oauth1(["sign", "--example", "twitter"])
    #expect(result.status == 0)
    for heading in [
      "1. Parameters", "2. Normalized parameters", "3. Base string URI", "4. Signature base string",
      "5. Signing key", "6. Signature (HMAC-SHA1, base64)", "7. Authorization header",
    ] {
      #expect(result.stdout.contains(heading), "missing \(heading)")
    }
    #expect(result.stdout.contains("Our signature:       hCtSmYh+iHYCEqBWrE7C7hYmtUk=  (matches)"))
  }

  @Test(arguments: ["x", "rfc5849"])
  func otherExamplesMatch(name: String) async throws {
    let result = try await oauth1(["sign", "--example", name])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("(matches)"))
  }

  /// The Twitter request given option by option, the body raw and as decoded form fields.
  @Test func twitterRequestFromOptions() async throws {
    let common = [
      "--method", "POST", "--url", "https://api.twitter.com/1.1/statuses/update.json?include_entities=true",
      "--consumer-key", "xvz1evFS4wEEPTGEFPHBog", "--consumer-secret", "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
      "--token", "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
      "--token-secret", "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
      "--nonce", "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", "--timestamp", "1318622958",
    ]
    let raw = try await signJSON(
      common + [
        "--body", "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21",
        "--content-type", "application/x-www-form-urlencoded",
      ])
    #expect(raw["signature"] as? String == "hCtSmYh+iHYCEqBWrE7C7hYmtUk=")
    let form = try await signJSON(common + ["--form", "status=Hello Ladies + Gentlemen, a signed OAuth request!"])
    #expect(form["signature"] as? String == "hCtSmYh+iHYCEqBWrE7C7hYmtUk=")
    let file = try temporaryFile(named: "body", contents: Data("status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21".utf8))
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    let fromFile = try await signJSON(common + ["--body-file", file.path, "--content-type", "application/x-www-form-urlencoded"])
    #expect(fromFile["signature"] as? String == "hCtSmYh+iHYCEqBWrE7C7hYmtUk=")
  }

  /// Every published complete request (RFC 5849's examples, the Twitter/X docs, OAuth Core,
  /// oauthlib's client tests, the body-hash draft ...) signed through the command line.
  @Test func publishedRequestsThroughTheCommandLine() async throws {
    var checked = 0
    for file in try VectorFile.loadAll() {
      for vector in file.vectors {
        guard let request = try PublishedRequest(vector) else { continue }
        defer { request.cleanUp() }
        let json = try await signJSON(request.arguments)
        if let signature = vector.expected(\.signature, named: "signature") {
          #expect(json["signature"] as? String == signature, "\(file.name) \(vector.id)")
        }
        if let baseString = vector.expected(\.baseString, named: "base_string") {
          #expect(json["signature_base_string"] as? String == baseString, "\(file.name) \(vector.id)")
        }
        let isRSA = request.arguments.contains("--private-key")
        #expect((json["signing_key"] is NSNull) == isRSA, "signing_key is null exactly for RSA (\(vector.id))")
        checked += 1
      }
    }
    print("[cli] \(checked) published requests signed through oauth1 sign --json")
    #expect(checked >= 15)
  }

  /// oauthlib's client signs with a resource-owner secret and no key; the command reproduces
  /// the published value and says on stderr what is unusual.
  @Test func aTokenSecretWithoutATokenIsSignedWithANote() async throws {
    let result = try await oauth1([
      "sign", "--url", "http://example.com", "--consumer-key", "client_key", "--consumer-secret", "foo", "--token-secret", "bar",
      "--signature-method", "PLAINTEXT", "--nonce", "abc", "--timestamp", "1234567890", "--json",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(json["signature"] as? String == "foo&bar")
    #expect((json["authorization_header"] as? String)?.contains("oauth_token") == false)
    #expect(result.stderr.contains("note: a token secret without --token"), "\(result.stderr)")
  }

  @Test func rfc5849ExamplesAreAmongThem() throws {
    let rfc = try #require(try VectorFile.loadAll().first { $0.name == "rfc5849.json" })
    let requests = try rfc.vectors.compactMap(PublishedRequest.init)
    #expect(requests.count >= 6, "RFC 5849 sections 1.2, 2.1, 2.3 and 3.1")
    for request in requests { request.cleanUp() }
  }
}
