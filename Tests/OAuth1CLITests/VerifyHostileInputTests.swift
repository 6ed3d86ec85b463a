import Foundation
import OAuth1
import TestSupport
import Testing

/// `oauth1 verify` as a real process, fed what an attacker sends a provider (#35 items 1 and 9).
@Suite("oauth1 verify, hostile input", .tags(.processes), .tier(.processes))
struct VerifyHostileInputTests {
  let now: Int64 = 1_700_000_000

  /// A 0.6 MB form body of 40,000 unknown `oauth_*` names is refused at once. Each name used to
  /// be compared with every earlier one: about 1.3 s in a release build, tens of seconds in a
  /// debug one.
  @Test func aHugeBodyOfOAuthNamesIsRefusedFast() async throws {
    let (result, elapsed) = try await verifyHugeBody()
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.hasPrefix("invalid: parameter_rejected\n"), "\(result.stdout)")
    #expect(elapsed < TestTiming.seconds(10), "refused after \(elapsed) s")
  }

  /// With its limits raised, the same body is read through, name by name, still fast: the
  /// parser itself is linear.
  @Test func raisedLimitsReadItThroughFast() async throws {
    let (result, elapsed) = try await verifyHugeBody(["--limit", "parameters=1000000", "--limit", "oauth-parameters=1000000"])
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.hasPrefix("invalid: parameter_absent\n"), "\(result.stdout)")
    #expect(elapsed < TestTiming.seconds(10), "read through in \(elapsed) s")
  }

  /// `oauth1 verify` of a 0.6 MB form body of 40,000 unknown `oauth_*` names, with `extra`
  /// arguments, and how long it took.
  func verifyHugeBody(_ extra: [String] = []) async throws -> (ProcessResult, TimeInterval) {
    let body = (0..<40_000).map { "oauth_x\($0)=1" }.joined(separator: "&")
    let file = try temporaryFile(named: "body", contents: Data(body.utf8))
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    let result = try await oauth1(
      [
        "verify", "--method", "POST", "--url", "https://api.example.com/1/items", "--body-file", file.path,
        "--content-type", "application/x-www-form-urlencoded", "--consumer-secret", "s", "--now", String(now),
      ] + extra)
    return (result, result.seconds)
  }

  @Test(arguments: [("bogus=1", "--limit takes url-bytes"), ("parameters=-1", "at least 0"), ("parameters", "NAME=VALUE")])
  func aWrongLimitIsAUsageError(setting: String, message: String) async throws {
    let result = try await oauth1(["verify", "--url", "https://api.example.com/x", "--consumer-secret", "s", "--limit", setting])
    #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }

  /// The largest numbers are refused as usage errors (exit 2) naming the option; they stopped the
  /// process with an overflow trap (exit 132).
  @Test(arguments: ["--max-skew", "--now"])
  func theLargestClockNumbersAreUsageErrors(option: String) async throws {
    let header =
      "OAuth oauth_consumer_key=\"app-key\", oauth_signature_method=\"HMAC-SHA1\", oauth_timestamp=\"\(now)\", oauth_nonce=\"n\", oauth_signature=\"AAAA\""
    var arguments = [
      "verify", "--url", "https://api.example.com/x", "--consumer-secret", "s", "--authorization", header, option,
      "9223372036854775807",
    ]
    if option == "--max-skew" { arguments += ["--now", String(now)] }
    let result = try await oauth1(arguments)
    #expect(result.status == 2, "exit \(result.status): \(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains(option), "\(result.stderr)")
  }

  /// A consumer key with an encoded CR/LF does not put a forged line in the output.
  @Test func anEncodedLineBreakIsNotEchoed() async throws {
    let header =
      "OAuth oauth_consumer_key=\"k%0D%0AX-Evil: 1\", oauth_signature_method=\"HMAC-SHA1\", oauth_timestamp=\"\(now)\", oauth_nonce=\"n\", oauth_signature=\"AAAA\""
    let result = try await oauth1([
      "verify", "--url", "https://api.example.com/x", "--consumer-secret", "s", "--consumer-key", "app-key", "--now", String(now),
      "--authorization", header,
    ])
    #expect(result.status == 1)
    #expect(result.stdout.hasPrefix("invalid: consumer_key_unknown\n"), "\(result.stdout)")
    let lines = result.stdout.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    #expect(!lines.contains { $0.hasPrefix("X-Evil") }, "\(result.stdout.debugDescription)")
    #expect(!result.stdout.contains("\r"))
  }
}
