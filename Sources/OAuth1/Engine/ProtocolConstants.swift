/// The protocol parameters a signer sends with every request (callback, consumer key,
/// signature method, token, verifier, version), encoded once when the signer is made: each
/// name and its encoded value side by side in ``text``, which a signature copies to the start
/// of its protocol writer in one go, so that the pairs (offsets into ``text``) point there too.
struct ProtocolConstants: Sendable {
  /// The pairs' bytes (ASCII), written once into the String's own storage.
  let text: String
  let callback: EncodedPair?
  let consumerKey: EncodedPair
  let signatureMethod: EncodedPair
  let token: EncodedPair?
  let verifier: EncodedPair?
  let version: EncodedPair?
  /// The realm as the header quotes it.
  let quotedRealm: String?

  /// Encodes the values of a signer: its consumer key, its token key (`nil` sends no
  /// `oauth_token`), and its configuration's method, callback, verifier, version and realm.
  init(
    consumerKey: String, tokenKey: String?, method: OAuthSignatureMethod, callback: String?, verifier: String?, includeVersion: Bool,
    realm: String?
  ) {
    let method = method.rawValue
    var values = consumerKey.utf8.count + (tokenKey?.utf8.count ?? 0) + (callback?.utf8.count ?? 0) + (verifier?.utf8.count ?? 0)
    values = 3 * values + method.utf8.count + 3
    var callbackPair: EncodedPair?, consumerKeyPair: EncodedPair?, methodPair: EncodedPair?
    var tokenPair: EncodedPair?, verifierPair: EncodedPair?, versionPair: EncodedPair?
    text = ByteWriter.string(capacity: 6 * ProtocolParameterName.longest + values) { out in
      if let callback { callbackPair = Self.append(.callback, callback, encoding: true, to: &out) }
      consumerKeyPair = Self.append(.consumerKey, consumerKey, encoding: true, to: &out)
      // Every method's name is unreserved.
      methodPair = Self.append(.signatureMethod, method, encoding: false, to: &out)
      if let tokenKey { tokenPair = Self.append(.token, tokenKey, encoding: true, to: &out) }
      if let verifier { verifierPair = Self.append(.verifier, verifier, encoding: true, to: &out) }
      if includeVersion { versionPair = Self.append(.version, "1.0", encoding: false, to: &out) }
    }
    (self.callback, self.consumerKey, signatureMethod) = (callbackPair, consumerKeyPair!, methodPair!)
    (self.token, self.verifier, version) = (tokenPair, verifierPair, versionPair)
    quotedRealm = realm.map(OAuthAuthorizationHeader.quote)
  }

  /// Appends `name` and `value`, percent-encoded when `encoding`, and pairs them.
  private static func append(_ name: ProtocolParameterName, _ value: String, encoding: Bool, to out: inout ByteWriter) -> EncodedPair {
    let start = out.count
    out.append(name.staticText)
    let nameEnd = out.count
    guard encoding else { return EncodedPair(name: start..<nameEnd, valueEnd: out.append(contentsOf: value).upperBound, percents: 0) }
    let encoded = out.appendEncoded(value)
    // Each escape writes two bytes more than it reads: no need to count the `%` again.
    return EncodedPair(name: start..<nameEnd, valueEnd: encoded.upperBound, percents: (encoded.count - value.utf8.count) / 2)
  }
}
