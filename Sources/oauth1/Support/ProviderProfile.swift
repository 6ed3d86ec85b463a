import CommandLineSupport
import Foundation

/// What `oauth1 login` saves and `oauth1 request --profile` reads: the provider, the consumer
/// and token credentials, and how to sign. Kept in `credentials.json` in `oauth1`'s config
/// directory, through the same store as `tweets` profiles (0600, replaced atomically).
struct ProviderProfile: Codable, Sendable, Hashable {
  var provider: String?
  var site: String?
  var consumerKey: String
  var consumerSecret: String?
  var token: String?
  var tokenSecret: String?
  var signatureMethod: String?
  var privateKey: String?
  var realm: String?
  /// Every other field of the access token answer (`user_id`, `screen_name`...): not secret.
  var fields: [String: String]?

  enum CodingKeys: String, CodingKey {
    case provider, site, realm, fields
    case consumerKey = "consumer_key"
    case consumerSecret = "consumer_secret"
    case token
    case tokenSecret = "token_secret"
    case signatureMethod = "signature_method"
    case privateKey = "private_key"
  }

  /// The store: `$OAUTH1_CONFIG_DIR`, else `$XDG_CONFIG_HOME/oauth1`, else `~/.config/oauth1`.
  static func store(environment: [String: String]) -> ProfileFile<ProviderProfile> {
    ProfileFile(directory: ProfileFile<ProviderProfile>.defaultDirectory(program: "oauth1", environment: environment))
  }
}
