import Foundation
import PercentEncoding

/// The one signing engine: every stage of RFC 5849 section 3.4 computed once, on bytes, by one
/// code path, for ``OAuthSigner`` (fast, nothing recorded) and ``OAuthSignatureGenerator`` (the
/// same run with a ``SigningTrace``). The verifier runs stages 2–5 through the same routines.
///
/// One signature, top to bottom:
/// 1. the request's target and form body are read in place (``RequestTarget``);
/// 2. the per-request protocol values (nonce, timestamp, body hash) are written to scratch
///    memory and listed, with the signer's constants, in name order (``ProtocolList``);
/// 3. query and form body pairs are collected, canonically encoded and sorted
///    (``CanonicalParameters``), and the protocol pairs, already in order, are merged in where
///    they sort as the base string is written;
/// 4. the base string is written once (``BaseString``), signed (``SignatureKey``) and base64'd
///    into the scratch, and slotted into the list as `oauth_signature`;
/// 5. the caller reads the result (the header is written once, in
///    ``OAuthAuthorizationHeader``).
///
/// An ordinary HMAC signature allocates only the strings it returns.
struct SigningEngine: Sendable {
  let configuration: OAuthSigner.Configuration
  let key: SignatureKey
  let constants: ProtocolConstants

  init(consumer: Credentials, token: Credentials?, configuration: OAuthSigner.Configuration) throws(OAuthError) {
    key = try SignatureKey(
      configuration.signatureMethod, consumerSecret: consumer.secret, tokenSecret: token?.secret, privateKey: configuration.privateKey)
    constants = ProtocolConstants(consumer: consumer, token: token, configuration: configuration)
    self.configuration = configuration  // its last use: moved, not copied
  }

  /// One signed request, lent to the caller of ``sign(_:nonce:timestamp:trace:_:)``: it
  /// points into scratch memory and must not escape.
  struct Signed {
    /// The protocol parameters with `oauth_signature`, encoded, in name order.
    let protocolParameters: UnsafeBufferPointer<EncodedPair>
    let baseString: UnsafeBufferPointer<UInt8>
    let quotedRealm: String?

    var authorizationHeader: String { OAuthAuthorizationHeader.make(quotedRealm: quotedRealm, pairs: protocolParameters) }
    var decodedProtocolParameters: [OAuthParameter] { protocolParameters.map(\.decoded) }
  }

  /// Signs `request` and lends `body` the result. `nonce` and `timestamp` replace the
  /// configured nonce source and clock for this call; `trace` records every stage.
  func sign<R>(
    _ request: OAuthRequest, nonce: String? = nil, timestamp: Int64? = nil, trace: SigningTrace? = nil, _ body: (Signed) -> R
  ) throws(OAuthError) -> R {
    let timestamp = timestamp ?? configuration.clock.secondsSince1970()
    // A `let`: a `var` captured by the closures below would be boxed and access-checked.
    let chosenNonce: String?
    if let nonce { chosenNonce = nonce } else { chosenNonce = try configuration.nonceSource?.nextNonce() }
    return try RequestTarget.with(request.url, host: request.host) { target throws(OAuthError) in
      try request.withFormBody { form throws(OAuthError) in
        let bodyHash = try bodyHashValue(request, isForm: form != nil)
        // The listed constants point into `constants`: keep it alive until the end.
        defer { withExtendedLifetime(constants) {} }
        return try ProtocolList.with(
          constants, nonce: chosenNonce, timestamp: timestamp, bodyHash: bodyHash, signatureRoom: key.room
        ) { list throws(OAuthError) in
          try sign(request.method, target, form, &list, trace: trace, body)
        }
      }
    }
  }

  /// Stages 2 to 8, once the protocol values are listed.
  private func sign<R>(
    _ method: String, _ target: RequestTarget, _ form: UnsafeBufferPointer<UInt8>?, _ list: inout ProtocolList,
    trace: SigningTrace?, _ body: (Signed) -> R
  ) throws(OAuthError) -> R {
    try Self.withBaseString(method: method, target: target, form: form, protocolParameters: list.pairs, trace: trace) {
      baseString, _ throws(OAuthError) in
      try list.appendSignature { out throws(OAuthError) in try key.appendSignature(of: baseString, encoded: true, to: &out) }
      let result = Signed(protocolParameters: list.pairs, baseString: baseString, quotedRealm: constants.quotedRealm)
      trace?.recordSignature(result)
      return body(result)
    }
  }

  /// Stages 2 to 5, shared by the signer and the verifier: collects and sorts the query, the
  /// form body and the received header's fields, merges in the protocol parameters (which
  /// must be sorted, as ``ProtocolList`` lists them), and lends `body` the base string and
  /// the request's own sorted parameters.
  static func withBaseString<R>(
    method: String, target: RequestTarget, form: UnsafeBufferPointer<UInt8>?, header: RawHeaderPairs? = nil,
    protocolParameters: UnsafeBufferPointer<EncodedPair>, trace: SigningTrace? = nil,
    _ body: (UnsafeBufferPointer<UInt8>, CanonicalParameters) throws(OAuthError) -> R
  ) throws(OAuthError) -> R {
    let headerBytes = 3 * (header?.byteCount ?? 0), headerEntries = header?.count ?? 0
    return try CanonicalParameters.withScratch(query: target.query, formBody: form, encodedBytes: headerBytes, extraEntries: headerEntries) {
      parameters throws(OAuthError) in
      try parameters.appendForm(target.query, source: .query)
      if let form { try parameters.appendForm(form, source: .formBody) }
      if let header { try parameters.appendHeader(header) }
      trace?.recordCollection(parameters, protocolParameters: protocolParameters)
      parameters.sort()
      trace?.recordNormalization(parameters, merging: protocolParameters, target: target)
      let sorted = parameters
      return try BaseString.with(method: method, target: target, parameters: sorted, protocolPairs: protocolParameters) {
        baseString throws(OAuthError) in try body(baseString, sorted)
      }
    }
  }

  /// `oauth_body_hash`, percent-encoded, when it is asked for and the body is not a form.
  private func bodyHashValue(_ request: OAuthRequest, isForm: Bool) throws(OAuthError) -> String? {
    guard let algorithm = configuration.bodyHash, !isForm else { return nil }
    return PercentEncoding.encode(try OAuthBodyHash.compute(body: request.body ?? Data(), algorithm: algorithm))
  }
}

/// Lets a test, or a server that must sign with a known nonce, choose `oauth_nonce`.
///
/// The default (no source) is 192 random bits per request written straight into the signer's
/// scratch memory. A source must never return the same nonce twice for the same timestamp:
/// a provider refuses the second request as a replay.
///
/// ```swift
/// struct CountingNonces: OAuthNonceSource {
///   let counter = Mutex(0)
///   func nextNonce() -> String { counter.withLock { $0 += 1; return "nonce-\($0)" } }
/// }
/// ```
public protocol OAuthNonceSource: Sendable {
  /// A nonce not returned before.
  func nextNonce() throws(OAuthError) -> String
}
