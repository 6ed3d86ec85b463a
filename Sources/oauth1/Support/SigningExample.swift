import CommandLineSupport
import Foundation
import OAuth1

/// Published requests with their published signatures, so that `oauth1 sign --example NAME`
/// shows the library reproducing a provider's documentation.
struct SigningExample {
  let name: String
  let title: String
  let publishedSignature: String
  let input: SignInput

  /// The example `--example NAME` selects, or `nil` without `--example`. Any option that
  /// would change the fixed request is wrong usage.
  static func selected(by arguments: ParsedArguments) throws(UsageError) -> SigningExample? {
    guard let name = arguments[SignCommand.example] else { return nil }
    guard let example = all.first(where: { $0.name == name.lowercased() }) else {
      throw UsageError("unknown example \"\(name)\"; choose one of \(all.map(\.name).joined(separator: ", "))")
    }
    if let conflicting = arguments.givenOptions.first(where: { ![SignCommand.example.name, SignCommand.json.name].contains($0) }) {
      throw UsageError("--example signs a fixed request; leave out --\(conflicting)")
    }
    return example
  }

  static let all: [SigningExample] = [twitter, x, rfc5849]

  /// Twitter's "Creating a signature" page (API v1.1 revision).
  static let twitter = SigningExample(
    name: "twitter",
    title: "Twitter developer docs, \"Creating a signature\" (API v1.1)",
    publishedSignature: "hCtSmYh+iHYCEqBWrE7C7hYmtUk=",
    input: twitterRequest(url: "https://api.twitter.com/1.1/statuses/update.json?include_entities=true"))

  /// The same page today, on api.x.com.
  static let x = SigningExample(
    name: "x",
    title: "X developer docs, \"Creating a signature\" (api.x.com)",
    publishedSignature: "Ls93hJiZbQ3akF3HF3x1Bz8/zU4=",
    input: twitterRequest(url: "https://api.x.com/1.1/statuses/update.json?include_entities=true"))

  /// RFC 5849 section 1.2, the protected-resource request.
  static let rfc5849 = SigningExample(
    name: "rfc5849",
    title: "RFC 5849 section 1.2, protected resource request",
    publishedSignature: "MdpQcU8iPSUjWoN/UDMsK2sui9I=",
    input: SignInput(
      request: OAuthRequest(method: "GET", url: "http://photos.example.net/photos?file=vacation.jpg&size=original"),
      consumer: Credentials(key: "dpf43f3p2l4k3l03", secret: "kd94hf93k423kf44"),
      token: Credentials(key: "nnch734d00sl2jdk", secret: "pfkkdhi9sl3r4s00"),
      options: .init(nonce: "chapoH", timestamp: 137_131_202, realm: "Photos", includeVersion: false)))

  private static func twitterRequest(url: String) -> SignInput {
    SignInput(
      request: OAuthRequest(
        method: "POST", url: url,
        body: Data("status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21".utf8),
        contentType: "application/x-www-form-urlencoded"),
      consumer: Credentials(key: "xvz1evFS4wEEPTGEFPHBog", secret: "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw"),
      token: Credentials(key: "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", secret: "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE"),
      options: .init(nonce: "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", timestamp: 1_318_622_958))
  }
}
