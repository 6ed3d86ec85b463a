import CommandLineSupport
import Foundation
import OAuth1

/// `oauth1 sign`: builds the request from the options, signs it and prints every stage.
struct SignCommand: OAuth1Subcommand {
  static let spec = CommandSpec(
    name: "oauth1 sign",
    summary: "Sign one request with OAuth 1.0a and print every intermediate value.",
    options: [RequestOptions.method, url] + RequestBodyInput.options + [
      RequestOptions.host, SigningOptions.consumerKey, SigningOptions.consumerSecret, SigningOptions.token, SigningOptions.tokenSecret,
      SigningOptions.signatureMethod,
    ] + SigningOptions.keyOptions + [
      nonce, timestamp, SigningOptions.realm, callback, verifier, noVersion, SigningOptions.bodyHash, SigningOptions.bodyHashAlgorithm, example,
      json, OAuth1Command.versionOption,
    ],
    discussion: """
      Examples:
        oauth1 sign --example twitter
        oauth1 sign --method POST --url 'https://api.x.com/1.1/statuses/update.json' \\
          --form status='Hello world' --consumer-key KEY --consumer-secret SECRET \\
          --token TOKEN --token-secret SECRET
      """)

  static let url = Option.value("url", placeholder: "URL", help: "The absolute URL as sent, with its raw query.")
  static let nonce = Option.value("nonce", placeholder: "NONCE", help: "oauth_nonce (default: 192 random bits).")
  static let timestamp = Option.value("timestamp", placeholder: "SECONDS", help: "oauth_timestamp (default: now).")
  static let callback = Option.value("callback", placeholder: "URL", help: "oauth_callback (\"oob\" for the PIN flow).")
  static let verifier = Option.value("verifier", placeholder: "VERIFIER", help: "oauth_verifier.")
  static let noVersion = Option.flag("no-version", help: "Leave out oauth_version.")
  static let example = Option.value(
    "example", placeholder: "NAME", help: "Sign a published example: \(SigningExample.all.map(\.name).joined(separator: ", ")).")
  static let json = Option.flag("json", help: "Print one JSON object instead of the stages.")

  static func run(_ parsed: ParsedArguments) async throws -> Int32 {
    let example = try SigningExample.selected(by: parsed)
    let input = try example?.input ?? SignInput(parsed, environment: ProcessInfo.processInfo.environment)
    for note in input.notes { Output.stderr("oauth1: note: \(note)") }
    let generator = try input.sign()
    let report = SigningReport(generator: generator, example: example)
    Output.stdout(parsed[json] ? report.json() : report.text())
    if let example, generator.signature != example.publishedSignature {
      Output.error("the signature differs from the published \(example.publishedSignature)")
      return 1
    }
    return 0
  }
}
