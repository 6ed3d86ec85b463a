/// The protocol values a signer sends with every request (callback, consumer key, signature
/// method, token, verifier, version), percent-encoded once, when the signer is made: a value
/// that needs no encoding (the usual case) is kept as it is, nothing copied, and a signature
/// writes each after its name (``ProtocolList``).
struct ProtocolConstants: Sendable {
  /// A value as the base string and the header carry it, and how many escapes it holds.
  struct Value: Sendable {
    let encoded: String
    let escapes: Int

    init(_ value: String) {
      if ByteWriter.isUnreserved(value) {
        encoded = value
        escapes = 0
      } else {
        encoded = ScratchArena.string { $0.appendEncoded(value) }
        // Each escape writes two bytes more than it reads.
        escapes = (encoded.utf8.count - value.utf8.count) / 2
      }
    }
  }

  let callback: Value?
  let consumerKey: Value
  let signatureMethod: OAuthSignatureMethod
  let token: Value?
  let verifier: Value?
  let includeVersion: Bool
  /// The realm as the header quotes it.
  let quotedRealm: String?

  /// Encodes the values of a signer: its consumer key, its token key (`nil` sends no
  /// `oauth_token`), and its configuration's method, callback, verifier, version and realm.
  init(
    consumerKey: String, tokenKey: String?, method: OAuthSignatureMethod, callback: String?, verifier: String?, includeVersion: Bool,
    realm: String?
  ) {
    self.callback = callback.map(Value.init)
    self.consumerKey = Value(consumerKey)
    signatureMethod = method
    token = tokenKey.map(Value.init)
    self.verifier = verifier.map(Value.init)
    self.includeVersion = includeVersion
    quotedRealm = realm.map(OAuthAuthorizationHeader.quote)
  }
}
