import Foundation
import OAuth1
import Testing

/// What the verifier repeats of a request in its errors (a consumer key, a name, a version)
/// reaches the provider's logs and the client: a value with CR/LF must not put a forged line
/// there, nor an escape sequence reach a terminal (#35 item 9).
@Suite("Values the verifier echoes carry no control characters")
struct EchoedInputTests {
  static let now: Int64 = 1_700_000_000

  static func verifier() -> OAuthVerifier {
    OAuthVerifier(
      credentials: InMemoryCredentialLookup(consumers: ["app-key": OAuthConsumer(secret: "app-secret")], tokens: [:]),
      options: .init(clock: FixedClock(seconds: now)))
  }

  static let valid = [
    "oauth_consumer_key=\"app-key\"", "oauth_signature_method=\"HMAC-SHA1\"", "oauth_timestamp=\"\(now)\"", "oauth_nonce=\"n\"",
    "oauth_signature=\"AAAA\"",
  ]

  /// The valid fields with `name` replaced by `field` (or `field` added).
  static func header(replacing name: String?, with field: String) -> String {
    "OAuth " + (valid.filter { name == nil || !$0.hasPrefix(name! + "=") } + [field]).joined(separator: ", ")
  }

  static let forged = "%0D%0AX-Evil:%201%0A%1B[31m%E2%80%A8%C2%85"

  static let cases: [(String, String)] = [
    ("consumer key", header(replacing: "oauth_consumer_key", with: "oauth_consumer_key=\"k\(forged)\"")),
    ("token", header(replacing: nil, with: "oauth_token=\"t\(forged)\"")),
    ("version", header(replacing: nil, with: "oauth_version=\"2\(forged)\"")),
    ("signature method", header(replacing: "oauth_signature_method", with: "oauth_signature_method=\"X\(forged)\"")),
    ("timestamp", header(replacing: "oauth_timestamp", with: "oauth_timestamp=\"1\(forged)\"")),
    ("a repeated unknown name", header(replacing: nil, with: "oauth_x\(forged)=\"1\", oauth_x\(forged)=\"2\"")),
    ("a foreign field's name", header(replacing: nil, with: "x\(forged)=\"1\"")),
    ("a malformed field's name", "OAuth oauth_consumer_key=\"app-key\", bad\u{1B}[31m\u{85}\u{2028}X-Evil:"),
    ("a malformed field's value", "OAuth oauth_consumer_key=\"app-key\", oauth_x\u{1B}[31m\u{85}=1"),
    ("an invalid encoding's name", header(replacing: nil, with: "oauth_y\(forged)=\"%FF\"")),
  ]

  @Test(arguments: cases)
  func noEchoedValueCarriesAControlCharacter(label: String, authorization: String) async {
    do {
      _ = try await Self.verifier().verify(OAuthRequest(method: "GET", url: "https://api.example.com/x"), authorization: authorization)
      Issue.record("\(label): accepted")
    } catch {
      let texts = [error.advice, error.description, error.parameters.joined(separator: ","), error.response().body]
      for text in texts {
        let controls = text.unicodeScalars.filter { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }
        #expect(
          controls.isEmpty, "\(label): \(error.problem.rawValue) echoes \(controls.map { String($0.value, radix: 16) }) in \(text.debugDescription)")
      }
    }
  }

  /// Echoed values are escaped readably: a person reading the log sees what was sent.
  @Test func escapesAreReadable() async {
    let error = await refusal(Self.header(replacing: "oauth_consumer_key", with: "oauth_consumer_key=\"k\(Self.forged)\""))
    #expect(error?.advice == #"no consumer has the key "k\r\nX-Evil: 1\n\u{1B}[31m\u{2028}\u{85}""#, "\(String(describing: error?.advice))")
    // Any error made with control characters has them escaped, the provider's own included.
    var own = OAuthVerificationError(.parameterRejected, advice: "line\nbreak", parameters: ["a\rb"])
    own.cause = "down\r\n"
    #expect(own.advice == #"line\nbreak"# && own.parameters == [#"a\rb"#])
    #expect(own.description == #"parameter_rejected: line\nbreak (down\r\n)"#)
  }

  /// A long value is cut where it is repeated, and an advice at ``OAuthVerificationError/maximumAdviceLength``.
  @Test func longValuesAreCut() async {
    let key = String(repeating: "k", count: 10_000)
    let error = await refusal(Self.header(replacing: "oauth_consumer_key", with: "oauth_consumer_key=\"\(key)\""))
    let expected = "no consumer has the key \"" + String(repeating: "k", count: 100) + "…\" (10000 bytes)"
    #expect(error?.advice == expected, "\(String(describing: error?.advice))")
    let long = OAuthVerificationError(.parameterRejected, advice: String(repeating: "a", count: 5000), parameters: [key])
    #expect(long.advice == String(repeating: "a", count: 1024) + "…")
    #expect(long.parameters == [String(repeating: "k", count: 100) + "…"])
    #expect(OAuthVerificationError.maximumAdviceLength == 1024 && OAuthVerificationError.maximumEchoLength == 100)
  }

  func refusal(_ authorization: String) async -> OAuthVerificationError? {
    do {
      _ = try await Self.verifier().verify(OAuthRequest(method: "GET", url: "https://api.example.com/x"), authorization: authorization)
      return nil
    } catch {
      return error
    }
  }
}
