import CommandLineSupport
import Foundation
import NetworkClient
import OAuth1
import OAuthNetworking

/// Who signs and how, for `oauth1 login` and `oauth1 request`: a saved profile first, then a
/// named provider's rules, then the options and environment variables `oauth1 sign` takes,
/// each later source overriding the earlier ones.
struct SigningSetup {
  static let profile = Option.value("profile", placeholder: "NAME", help: "A profile saved by `oauth1 login` (credentials, provider, signing).")
  static let provider = Option.value(
    "provider", placeholder: "NAME", help: "A provider's rules: \(OAuthProvider.names.joined(separator: ", ")).")
  static let site = Option.value(
    "site", placeholder: "URL", help: "The provider's URL where it runs on your server (Jira, Magento, WooCommerce...); NetSuite's account id.")
  static let options: [any OptionDeclaration] = [
    profile, provider, site, SigningOptions.consumerKey, CommandRunner.consumerSecret, SigningOptions.token, CommandRunner.tokenSecret,
    SigningOptions.signatureMethod, SigningOptions.privateKey, SigningOptions.realm, SigningOptions.bodyHash, SigningOptions.bodyHashAlgorithm,
  ]

  var provider: OAuthProvider?
  var consumer: Credentials
  var token: Credentials?
  var configuration: OAuthSigner.Configuration
  /// The private key's file, saved in a profile (the key itself never is).
  var privateKeyPath: String?
  var stored: ProviderProfile?

  /// Reads the setup; `readingProfile: false` ignores `--profile` (login writes it).
  init(_ arguments: ParsedArguments, environment: [String: String], readingProfile: Bool = true) throws {
    if readingProfile, let name = arguments[Self.profile] {
      guard let profile = try ProviderProfile.store(environment: environment).profile(named: name) else {
        let known = (try? ProviderProfile.store(environment: environment).names()) ?? []
        throw UsageError(
          "no profile is named \(CommandSpec.shown(name))"
            + (known.isEmpty ? "; create one with `oauth1 login --profile \(name) ...`" : " (saved: \(known.joined(separator: ", ")))"))
      }
      stored = profile
    }
    let providerName = arguments[Self.provider] ?? stored?.provider
    let site = arguments[Self.site] ?? (arguments[Self.provider] == nil ? stored?.site : nil)
    if let providerName {
      do {
        provider = try OAuthProvider.named(providerName, site: site)
      } catch {
        throw UsageError("--provider: \(error.description) (give it with --site)")
      }
    } else if arguments.has(Self.site) {
      throw UsageError("--site needs --provider")
    }

    guard let consumerKey = arguments[SigningOptions.consumerKey] ?? stored?.consumerKey else {
      throw UsageError("missing --consumer-key (or --profile)")
    }
    let method =
      try SigningOptions.signatureMethod(arguments) ?? stored?.signatureMethod.flatMap { try? OAuthSignatureMethod(name: $0) }
      ?? provider?.signatureMethod ?? .hmacSHA1
    privateKeyPath = arguments[SigningOptions.privateKey] ?? stored?.privateKey
    let privateKey = try privateKeyPath.map { try SigningOptions.privateKey(at: $0) }
    if method.usesRSA && privateKey == nil { throw UsageError("\(method.rawValue) needs --private-key FILE") }
    let consumerSecret = arguments[CommandRunner.consumerSecret] ?? environment["OAUTH1_CONSUMER_SECRET"] ?? stored?.consumerSecret
    guard consumerSecret != nil || method.usesRSA else {
      throw UsageError("missing --consumer-secret (or OAUTH1_CONSUMER_SECRET, or --profile)")
    }
    consumer = Credentials(key: consumerKey, secret: consumerSecret ?? "")
    if let tokenKey = arguments[SigningOptions.token] ?? stored?.token {
      let secret = arguments[CommandRunner.tokenSecret] ?? environment["OAUTH1_TOKEN_SECRET"] ?? stored?.tokenSecret
      token = Credentials(key: tokenKey, secret: secret ?? "")
    } else if arguments.has(CommandRunner.tokenSecret) {
      throw UsageError("--token-secret needs --token")
    }
    configuration = OAuthSigner.Configuration(
      signatureMethod: method, privateKey: privateKey, realm: arguments[SigningOptions.realm] ?? stored?.realm ?? provider?.realm,
      bodyHash: try SigningOptions.bodyHashAlgorithm(arguments) ?? provider?.bodyHash)
  }

  /// The headers the provider requires (its `User-Agent`, say).
  var providerHeaders: HTTPHeaders { provider?.headers ?? [:] }

  /// Where the protocol parameters go: the provider's rule unless `--query-auth` asks for the query.
  func placement(queryAuth: Bool) -> OAuthRequestBehavior.Placement {
    queryAuth ? .query : provider?.placement ?? .header
  }
}
