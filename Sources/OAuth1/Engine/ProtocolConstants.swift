/// The protocol values a signer sends with every request (callback, consumer key, signature
/// method, token, verifier, version), each percent-encoded once, when the signer is made: the
/// value itself when it needs no encoding (the usual case: nothing is copied), else its
/// encoding. A signature copies them after their names (``ProtocolList``).
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
        encoded = ByteWriter.string(capacity: 3 * value.utf8.count) { $0.appendEncoded(value) }
        // Each escape writes two bytes more than it reads.
        escapes = (encoded.utf8.count - value.utf8.count) / 2
      }
    }
  }

  let callback: Value?
  let consumerKey: Value
  /// Every method's name is unreserved.
  let signatureMethod: String
  let token: Value?
  let verifier: Value?
  let includeVersion: Bool
  /// The realm as the header quotes it.
  let quotedRealm: String?

  init(consumer: borrowing Credentials, token: borrowing Credentials?, configuration: borrowing OAuthSigner.Configuration) {
    callback = configuration.callback.map(Value.init)
    consumerKey = Value(consumer.key)
    signatureMethod = configuration.signatureMethod.rawValue
    // Token credentials with an empty key sign with their secret but send no oauth_token.
    self.token = token.flatMap { $0.key.isEmpty ? nil : Value($0.key) }
    verifier = configuration.verifier.map(Value.init)
    includeVersion = configuration.includeVersion
    quotedRealm = configuration.realm.map(OAuthAuthorizationHeader.quote)
  }

  /// The bytes of the values.
  var byteCount: Int {
    let optional = (callback?.encoded.utf8.count ?? 0) + (token?.encoded.utf8.count ?? 0) + (verifier?.encoded.utf8.count ?? 0)
    return consumerKey.encoded.utf8.count + signatureMethod.utf8.count + optional + 3
  }
}
