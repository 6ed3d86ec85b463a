/// Where a verifier finds the secrets of the credentials a request names: a database, a
/// cache, a configuration file. Both lookups are asynchronous so they can go to a store.
///
/// ```swift
/// struct Accounts: OAuthCredentialLookup {
///   func consumer(forKey key: String) async throws -> OAuthConsumer? {
///     try await database.consumerSecret(key).map { OAuthConsumer(secret: $0) }
///   }
///   func tokenSecret(forToken token: String, consumerKey: String) async throws -> String? {
///     try await database.tokenSecret(token, issuedTo: consumerKey)
///   }
/// }
/// ```
public protocol OAuthCredentialLookup: Sendable {
  /// The consumer with this key, or `nil` if there is none.
  func consumer(forKey key: String) async throws -> OAuthConsumer?
  /// The secret of a token issued to the consumer, or `nil` if the token is unknown, expired
  /// or revoked.
  func tokenSecret(forToken token: String, consumerKey: String) async throws -> String?
}

/// What a verifier needs to know about a consumer: its shared secret (HMAC and PLAINTEXT)
/// and/or its RSA public key (RSA methods).
public struct OAuthConsumer: Sendable {
  /// The consumer secret, for HMAC and PLAINTEXT signatures; `nil` for a consumer that signs with RSA only, whose HMAC or
  /// PLAINTEXT requests are then refused as `signature_method_rejected`.
  public var secret: String?
  /// The public key that checks the consumer's RSA signatures; `nil` when it has none, and its RSA requests are then refused as
  /// `signature_method_rejected`.
  public var rsaPublicKey: RSAPublicKey?

  /// Creates a consumer with a shared secret, an RSA public key, or both; leave out what the consumer does not sign with.
  public init(secret: String? = nil, rsaPublicKey: RSAPublicKey? = nil) {
    self.secret = secret
    self.rsaPublicKey = rsaPublicKey
  }
}

/// Credentials held in memory: for tests, tools and small services.
///
/// ```swift
/// let lookup = InMemoryCredentialLookup(
///   consumers: ["app-key": OAuthConsumer(secret: "app-secret")],
///   tokens: ["user-token": "user-secret"])
/// ```
public struct InMemoryCredentialLookup: OAuthCredentialLookup {
  /// Consumer key → consumer; a key that is not here is refused as `consumer_key_unknown`.
  public var consumers: [String: OAuthConsumer]
  /// Token → secret, valid for every consumer.
  public var tokens: [String: String]

  /// Creates a lookup with these consumers and token secrets (token → secret, valid for every consumer; none by default,
  /// so only requests without `oauth_token` pass).
  public init(consumers: [String: OAuthConsumer], tokens: [String: String] = [:]) {
    self.consumers = consumers
    self.tokens = tokens
  }

  public func consumer(forKey key: String) async throws -> OAuthConsumer? { consumers[key] }
  public func tokenSecret(forToken token: String, consumerKey: String) async throws -> String? { tokens[token] }
}
