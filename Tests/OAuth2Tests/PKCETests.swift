internal import CryptoPrimitives
import Foundation
import TestSupport
import Testing

@testable import OAuth2

/// PKCE (RFC 7636): the published vector, the verifier's length and alphabet, a failing digest
/// as an error, and oauthlib's own S256 check over random verifiers.
@Suite("PKCE")
struct PKCETests {
  /// RFC 7636 Appendix B.
  @Test func theRFCsExample() throws {
    let pkce = try PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
    #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    #expect(pkce.method == "S256")
    #expect(!pkce.description.contains(pkce.verifier))
  }

  @Test func verifiersHaveTheRFCsLengthAndAlphabet() throws {
    for length in [43, 64, 128] {
      let pkce = try PKCE(length: length)
      #expect(pkce.verifier.count == length && pkce.verifier.allSatisfy { PKCE.alphabet.contains($0) })
      #expect(pkce.challenge.count == 43 && !pkce.challenge.contains("=") && !pkce.challenge.contains("+") && !pkce.challenge.contains("/"))
    }
    #expect(try PKCE().verifier != PKCE().verifier)
    #expect(throws: OAuth2Error.self) { try PKCE(verifier: String(repeating: "a", count: 42)) }
    #expect(throws: OAuth2Error.self) { try PKCE(verifier: String(repeating: "a", count: 129)) }
    #expect(throws: OAuth2Error.self) { try PKCE(verifier: String(repeating: "a", count: 42) + "+") }
  }

  /// A digest that fails (an OpenSSL that cannot hash) is an error that says so, not a login
  /// sent with an empty challenge that no verifier matches.
  @Test func aFailingDigestIsAnErrorNotAnEmptyChallenge() throws {
    let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    #expect(throws: OAuth2Error.cryptoFailure(operation: "digest", reason: "no SHA-256 here")) {
      try PKCE(verifier: verifier) { _ throws(CryptoError) in throw .libraryFailure(operation: "digest", reason: "no SHA-256 here") }
    }
    #expect(throws: OAuth2Error.cryptoFailure(operation: "digest", reason: "SHA-256 gave 0 bytes, not 32")) {
      try PKCE(verifier: verifier) { _ throws(CryptoError) in [] }
    }
    let error = OAuth2Error.cryptoFailure(operation: "digest", reason: "no SHA-256 here")
    #expect(error.code == "crypto_failure" && error.isFinal && error.description.contains("no SHA-256 here"))
    // The seam computes what the public initializer does.
    #expect(
      try PKCE(verifier: verifier) { text throws(CryptoError) in try DigestAlgorithm.sha256.digest(of: Array(text.utf8)) }.challenge
        == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
  }

  @Test("oauthlib's authorization server accepts every challenge", .tags(.peers), .tier(.peers))
  func oauthlibAccepts() async throws {
    let cases = try (0..<200).map { index in try PKCE(length: 43 + index % 86) }
    let input = try JSONSerialization.data(withJSONObject: cases.map { ["verifier": $0.verifier, "challenge": $0.challenge] })
    let verdicts = try JSONDecoder().decode([Bool].self, from: try await PythonPeer.run(script: "oauthlib_pkce.py", input: input))
    #expect(verdicts.count == 200 && verdicts.allSatisfy { $0 })
    // And refuses a challenge of another verifier, so the check is not vacuous.
    let wrong = try JSONSerialization.data(withJSONObject: [["verifier": cases[0].verifier, "challenge": cases[1].challenge]])
    #expect(try await JSONDecoder().decode([Bool].self, from: try PythonPeer.run(script: "oauthlib_pkce.py", input: wrong)) == [false])
  }
}
