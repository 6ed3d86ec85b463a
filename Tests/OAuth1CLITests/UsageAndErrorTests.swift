import Foundation
import TestSupport
import Testing

@Suite("oauth1: usage, help and errors", .tags(.processes), .tier(.processes))
struct UsageAndErrorTests {
  static let minimal = ["sign", "--url", "https://api.example.com/x", "--consumer-key", "k", "--consumer-secret", "s"]

  @Test(arguments: [
    (["sign"], "missing --url"),
    (["sign", "--url", "https://a.example/"], "missing --consumer-key"),
    (["sign", "--url", "https://a.example/", "--consumer-key", "k"], "missing --consumer-secret"),
    (["sign", "--nonse", "x"], "unknown option --nonse (did you mean --nonce?)"),
    (minimal + ["--max-time", "5"], "oauth1 sign does not take --max-time: request does"),
    (minimal + ["--body", "a", "--form", "b=c"], "give only one of --body, --body-file and --form"),
    (minimal + ["--form", "novalue"], "--form takes NAME=VALUE"),
    (minimal + ["--timestamp", "yesterday"], "--timestamp takes a whole number"),
    (minimal + ["--signature-method", "HMAC-MD5"], "Unknown signature method \"HMAC-MD5\""),
    (minimal + ["--signature-method", "RSA-SHA1"], "RSA-SHA1 needs --private-key FILE"),
    (["sign", "--example", "twitter", "--nonce", "x"], "--example signs a fixed request; leave out --nonce"),
    (["sign", "--example", "nope"], "unknown example \"nope\""),
    (["frobnicate"], "unknown command \"frobnicate\""),
  ])
  func wrongUsageExitsTwoWithTheUsage(arguments: [String], message: String) async throws {
    let result = try await oauth1(arguments)
    #expect(result.status == 2)
    #expect(result.stderr.contains("oauth1: error: \(message)"), "stderr was: \(result.stderr)")
    #expect(result.stderr.contains("Usage:"))
    #expect(result.stdout.isEmpty)
  }

  @Test(arguments: [
    ("/1.1/statuses/update.json", "is relative"),
    ("ftp://files.example.com/x", "uses the scheme \"ftp\""),
    ("https://", "has no host"),
    ("https://api.example.com:99999/", "has the port \"99999\""),
  ])
  func badURLsExitOneWithTheReason(url: String, reason: String) async throws {
    let result = try await oauth1(["sign", "--url", url, "--consumer-key", "k", "--consumer-secret", "s"])
    #expect(result.status == 1)
    #expect(result.stderr.contains(reason), "stderr was: \(result.stderr)")
  }

  @Test func unreadableOrWrongKeyFiles() async throws {
    let missing = try await oauth1(Self.minimal + ["--signature-method", "RSA-SHA1", "--private-key", "/nonexistent/key.pem"])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("cannot read the private key file /nonexistent/key.pem"))

    let garbage = try temporaryFile(named: "key.pem", contents: Data("not a key".utf8))
    defer { try? FileManager.default.removeItem(at: garbage.deletingLastPathComponent()) }
    let invalid = try await oauth1(Self.minimal + ["--signature-method", "RSA-SHA256", "--private-key", garbage.path])
    #expect(invalid.status == 1)
    #expect(invalid.stderr.contains("The key could not be read"))
  }

  @Test func nonUTF8FormBodyIsRefused() async throws {
    let result = try await oauth1(Self.minimal + ["--method", "POST", "--body", "a=%FF", "--content-type", "application/x-www-form-urlencoded"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("form body parameter \"a\" does not decode to UTF-8"))
  }

  @Test func secretsFromTheEnvironment() async throws {
    var environment = ProcessInfo.processInfo.environment
    environment["OAUTH1_CONSUMER_SECRET"] = "env-secret"
    environment["OAUTH1_TOKEN_SECRET"] = "env-token-secret"
    let result = try await oauth1(["sign", "--json", "--url", "https://a.example/", "--consumer-key", "k", "--token", "t"], environment: environment)
    #expect(result.status == 0)
    #expect(result.stdout.contains(#""signing_key" : "env-secret&env-token-secret""#))
  }

  @Test func helpAndVersion() async throws {
    let help = try await oauth1(["sign", "--help"])
    #expect(help.status == 0)
    for option in [
      "--method", "--url", "--body", "--content-type", "--form", "--body-file", "--consumer-key",
      "--consumer-secret", "--token", "--token-secret", "--signature-method", "--private-key", "--nonce",
      "--timestamp", "--realm", "--callback", "--verifier", "--no-version", "--body-hash", "--json",
      "--example", "--help", "--version",
    ] {
      #expect(help.stdout.contains(option), "help lacks \(option)")
    }
    #expect(try await oauth1(["help", "sign"]).stdout == help.stdout)
    let version = try await oauth1(["--version"])
    #expect(version.status == 0 && version.stdout.hasPrefix("oauth1 "))
    #expect(try await oauth1(["sign", "--version"]).stdout == version.stdout)
    let bare = try await oauth1([])
    #expect(bare.status == 2 && bare.stderr.contains("no command given") && bare.stderr.contains("Commands:"))
  }
}
