import CommandLineSupport
import Foundation
import NetworkClient
import OAuth1
import OAuthNetworking

/// Who signs and how, for `oauth1 login` and `oauth1 request`. Each value comes from the first
/// place that has it: the command's options, then the saved profile (`--profile`), then the
/// environment variables `oauth1 sign` reads, then the provider's rules (`--provider`, or the
/// profile's). A token's key and secret always come from the same place.
struct SigningSetup {
  static let profile = Option.value("profile", placeholder: "NAME", help: "A profile saved by `oauth1 login` (credentials, provider, signing).")
  static let provider = Option.value(
    "provider", placeholder: "NAME", help: "A provider's rules: \(OAuthProvider.names.joined(separator: ", ")).")
  static let site = Option.value(
    "site", placeholder: "URL", help: "The provider's URL where it runs on your server (Jira, Magento, WooCommerce...); NetSuite's account id.")
  static let options: [any OptionDeclaration] =
    [
      profile, provider, site, SigningOptions.consumerKey, SigningOptions.consumerSecret, SigningOptions.token, SigningOptions.tokenSecret,
      SigningOptions.signatureMethod,
    ] + SigningOptions.keyOptions + [SigningOptions.realm, SigningOptions.bodyHash, SigningOptions.bodyHashAlgorithm]

  var provider: OAuthProvider?
  var consumer: Credentials
  var token: Credentials?
  var configuration: OAuthSigner.Configuration
  /// The private key's file, as an absolute path (saved in a profile; the key itself never is).
  var privateKeyPath: String?
  var stored: ProviderProfile?

  /// Reads the setup; `readingProfile: false` ignores `--profile` (login writes it).
  init(_ arguments: ParsedArguments, environment: [String: String], readingProfile: Bool = true) throws {
    if readingProfile, let name = arguments[Self.profile] {
      let store = ProviderProfile.store(environment: environment)
      guard let profile = try store.profile(named: name) else {
        let known = (try? store.names()) ?? []
        throw UsageError(
          "no profile is named \(CommandSpec.shown(name))"
            + (known.isEmpty ? "; create one with `oauth1 login --profile \(name) ...`" : " (saved: \(known.joined(separator: ", ")))"))
      }
      if let warning = store.permissionWarning() { Output.stderr("oauth1: \(warning)") }
      stored = profile
    }
    let providerName = arguments[Self.provider] ?? stored?.provider
    let site = arguments[Self.provider] == nil ? arguments[Self.site] ?? stored?.site : arguments[Self.site]
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
    privateKeyPath = try SigningOptions.privateKeyPath(arguments, stored: stored?.privateKey)
    let privateKey = try privateKeyPath.map { try SigningOptions.privateKey(at: $0, arguments, environment: environment) }
    if method.usesRSA && privateKey == nil { throw UsageError("\(method.rawValue) needs --private-key FILE") }
    let consumerSecret = arguments[SigningOptions.consumerSecret] ?? stored?.consumerSecret ?? environment["OAUTH1_CONSUMER_SECRET"]
    guard consumerSecret != nil || method.usesRSA else {
      throw UsageError("missing --consumer-secret (or OAUTH1_CONSUMER_SECRET, or --profile)")
    }
    consumer = Credentials(key: consumerKey, secret: consumerSecret ?? "")
    if let tokenKey = arguments[SigningOptions.token] {
      token = Credentials(key: tokenKey, secret: arguments[SigningOptions.tokenSecret] ?? environment["OAUTH1_TOKEN_SECRET"] ?? "")
    } else if let tokenKey = stored?.token {
      token = Credentials(key: tokenKey, secret: arguments[SigningOptions.tokenSecret] ?? stored?.tokenSecret ?? "")
    } else if arguments.has(SigningOptions.tokenSecret) {
      throw UsageError("--token-secret needs --token")
    }
    configuration = OAuthSigner.Configuration(
      signatureMethod: method, privateKey: privateKey, realm: arguments[SigningOptions.realm] ?? stored?.realm ?? provider?.realm,
      bodyHash: try SigningOptions.bodyHashAlgorithm(arguments) ?? provider?.bodyHash)
    configuration.sendsEmptyToken = provider?.sendsEmptyToken == true
  }

  /// The headers the provider requires (its `User-Agent`, say).
  var providerHeaders: HTTPHeaders { provider?.headers ?? [:] }

  /// Where the protocol parameters go: the provider's rule unless `--query-auth` asks for the query.
  func placement(queryAuth: Bool) -> OAuthRequestBehavior.Placement {
    queryAuth ? .query : provider?.placement ?? .header
  }
}
