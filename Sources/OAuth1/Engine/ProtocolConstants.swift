import PercentEncoding

/// The protocol parameters one signer sends with every request (consumer key, token,
/// callback, verifier, signature method, version), encoded once.
///
/// Invariants: the values live in one allocation made in `init` and freed in `deinit`, never
/// written after `init`; the pairs point into it (names point to static strings), so they are
/// valid while this object is alive: users keep it alive with `withExtendedLifetime`.
final class ProtocolConstants: @unchecked Sendable {
  let callback: EncodedPair?
  let consumerKey: EncodedPair
  let signatureMethod: EncodedPair
  let token: EncodedPair?
  let verifier: EncodedPair?
  let version: EncodedPair?
  /// The realm as the header quotes it.
  let quotedRealm: String?
  private let storage: UnsafeMutablePointer<UInt8>

  init(consumer: borrowing Credentials, token: borrowing Credentials?, configuration: borrowing OAuthSigner.Configuration) {
    // Token credentials with an empty key sign with their secret but send no oauth_token.
    let tokenKey = token.flatMap { $0.key.isEmpty ? nil : $0.key }
    let version: String? = configuration.includeVersion ? "1.0" : nil
    let method = configuration.signatureMethod.rawValue
    var capacity = 3 * (consumer.key.utf8.count + method.utf8.count + (version?.utf8.count ?? 0))
    capacity += 3 * ((tokenKey?.utf8.count ?? 0) + (configuration.callback?.utf8.count ?? 0) + (configuration.verifier?.utf8.count ?? 0))
    let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: max(capacity, 1))
    var out = ByteWriter(storage, capacity: capacity)
    callback = Self.encode(.callback, configuration.callback, into: &out)
    consumerKey = Self.encode(.consumerKey, consumer.key, into: &out)!
    signatureMethod = Self.encode(.signatureMethod, method, into: &out)!
    self.token = Self.encode(.token, tokenKey, into: &out)
    verifier = Self.encode(.verifier, configuration.verifier, into: &out)
    self.version = Self.encode(.version, version, into: &out)
    quotedRealm = configuration.realm.map(OAuthAuthorizationHeader.quote)
    self.storage = storage
  }

  deinit { storage.deallocate() }

  /// Appends `value` encoded and pairs it with `name`; `nil` for no value. (A static function,
  /// not a closure over the writer, which would box it and check every access.)
  private static func encode(_ name: ProtocolParameterName, _ value: String?, into out: inout ByteWriter) -> EncodedPair? {
    guard var value else { return nil }
    let start = out.count
    let raw = value.utf8.count
    value.withUTF8 { out.appendEncoded($0) }
    // Each escape writes two bytes more than it reads: no need to count the `%` again.
    let encoded = UnsafeBufferPointer(rebasing: out.written[start...])
    return EncodedPair(name: name.utf8, value: encoded, percents: Int32((encoded.count - raw) / 2))
  }
}
