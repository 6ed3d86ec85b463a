import Foundation
import PercentEncoding

/// The one signing engine: every stage of RFC 5849 section 3.4 computed once, on bytes, by one
/// code path, for ``OAuthSigner`` (fast, nothing recorded) and ``OAuthSignatureGenerator`` (the
/// same run with a ``SigningTrace``). The verifier runs stages 2–5 through the same routines.
///
/// One signature, top to bottom, in scratch memory (``ScratchArena``): the request's writer,
/// the protocol writer and a list of ``EncodedPair``s, which point into those writers by offset,
/// then the base string's own writer. Each starts on the stack and none is sized in advance.
/// 1. the request's URL is copied in and read (``RequestTarget``), then its form body;
/// 2. the protocol parameters — the signer's values (``ProtocolConstants``), this request's
///    nonce, timestamp and body hash — are written to the protocol writer and listed in name order
///    (``ProtocolList``);
/// 3. query and form body pairs are collected, canonically encoded and sorted
///    (``CanonicalParameters``), and the protocol pairs, already in order, are merged in where
///    they sort as the base string is written (``SigningOrder``);
/// 4. the base string is written once into its own writer (``BaseString``), signed (``SignatureKey``) and base64'd into the protocol writer, and
///    slotted into the list as `oauth_signature`;
/// 5. the caller reads the result (the header is written once, ``AuthorizationHeaderWriter``).
///
/// An ordinary HMAC signature allocates only the strings it returns.
struct SigningEngine: Sendable {
  let configuration: OAuthSigner.Configuration
  /// How the signature is computed; ``SignatureKey/external`` while an ``OAuthExternalSigner``
  /// has to be awaited (``signExternally(_:nonce:timestamp:)`` swaps in its answer).
  var key: SignatureKey
  let constants: ProtocolConstants
  let consumer: Credentials
  let token: Credentials?

  init(consumer: consuming Credentials, token: consuming Credentials?, configuration: consuming OAuthSigner.Configuration) throws(OAuthError) {
    if configuration.externalSigner != nil {
      guard configuration.signatureMethod != .plaintext else {
        throw .externalSigner(problem: "PLAINTEXT sends the signing key itself, there is no signature to compute; choose an HMAC or RSA method")
      }
      key = .external
    } else {
      key = try SignatureKey(
        configuration.signatureMethod, consumerSecret: consumer.secret, tokenSecret: token?.secret, privateKey: configuration.privateKey)
    }
    // Token credentials with an empty key sign with their secret but send no oauth_token.
    // Unless the provider wants oauth_token="" on two-legged requests (Schoology).
    let tokenKey = token.flatMap { $0.key.isEmpty ? nil : $0.key } ?? (configuration.sendsEmptyToken ? "" : nil)
    constants = ProtocolConstants(
      consumerKey: consumer.key, tokenKey: tokenKey, method: configuration.signatureMethod, callback: configuration.callback,
      verifier: configuration.verifier, includeVersion: configuration.includeVersion, realm: configuration.realm)
    // Their last uses: moved, not copied.
    self.consumer = consumer
    self.token = token
    self.configuration = configuration
  }

  /// One signed request: where its protocol parameters are in the list that
  /// ``SigningEngine/sign(_:nonce:timestamp:trace:_:)`` lends with it.
  struct Signed {
    /// The protocol parameters with `oauth_signature`, encoded, in name order.
    let protocolPairs: Range<Int>
    let quotedRealm: String?

    func authorizationHeader(_ protocolBytes: borrowing ByteWriter, _ pairs: borrowing ScratchArena.List<EncodedPair>) -> String {
      AuthorizationHeaderWriter.make(quotedRealm: quotedRealm, protocolPairs, protocolBytes, pairs)
    }

    func decodedProtocolParameters(_ protocolBytes: borrowing ByteWriter, _ pairs: borrowing ScratchArena.List<EncodedPair>) -> [OAuthParameter] {
      CanonicalParameters.decoded(protocolPairs, includingProtocol: true, protocolBytes, pairs)
    }
  }

  /// Signs `request` and lends `body` the result: the protocol writer, the pairs, the base
  /// string. `nonce` and `timestamp` replace the configured nonce source and clock for this
  /// call; `trace` records every stage.
  func sign<R>(
    _ request: OAuthRequest, nonce: String? = nil, timestamp: Int64? = nil, trace: SigningTrace? = nil,
    _ body: (
      _ protocolBytes: borrowing ByteWriter, _ pairs: borrowing ScratchArena.List<EncodedPair>, _ baseString: borrowing ByteWriter, Signed
    ) -> R
  ) throws(OAuthError) -> R {
    let timestamp = timestamp ?? configuration.clock.secondsSince1970()
    let chosenNonce: String?
    if let nonce { chosenNonce = nonce } else { chosenNonce = try configuration.nonceSource?.nextNonce() }
    let isForm = request.hasFormBody
    let bodyHash = try bodyHashValue(request, isForm: isForm)
    try CanonicalParameters.checkSize(request.url.utf8.count + (isForm ? request.body?.count ?? 0 : 0))
    let method = request.method
    return try ScratchArena.withBytes { protocolBytes throws(OAuthError) in
      try RequestTarget.withScratch(url: request.url, host: request.host, form: isForm ? request.body ?? Data() : nil) {
        target, formRange, bytes, pairs throws(OAuthError) in
        let list = try ProtocolList.append(constants, nonce: chosenNonce, timestamp: timestamp, bodyHash: bodyHash, &protocolBytes, &pairs)
        return try Self.withBaseString(
          method: method, target: target, form: formRange, protocolList: list, trace: trace, &bytes, &protocolBytes, &pairs
        ) { _, protocolBytes, pairs, baseString, _ throws(OAuthError) in
          try list.appendSignature(key, of: baseString, &protocolBytes, &pairs)
          let signed = Signed(protocolPairs: list.pairs, quotedRealm: constants.quotedRealm)
          trace?.recordSignature(protocolBytes, pairs, baseString, signed)
          return body(protocolBytes, pairs, baseString, signed)
        }
      }
    }
  }

  /// Stages 2 to 5, shared by the signer and the verifier: collects and sorts the query and
  /// the form body (in the request's writer, `bytes`), merges in the protocol parameters (a
  /// signer's, listed in `protocolBytes`, or a received header's fields, encoded into it here),
  /// writes the base string, and lends `body` the writers with the base string and the
  /// signing order.
  static func withBaseString<R>(
    method: String, target: RequestTarget, form: Range<Int>?, header: RawHeaderPairs? = nil, protocolList: ProtocolList? = nil,
    trace: SigningTrace? = nil, _ bytes: inout ByteWriter, _ protocolBytes: inout ByteWriter, _ pairs: inout ScratchArena.List<EncodedPair>,
    _ body: (inout ByteWriter, inout ByteWriter, inout ScratchArena.List<EncodedPair>, borrowing ByteWriter, SigningOrder) throws(OAuthError) ->
      R
  ) throws(OAuthError) -> R {
    let first = pairs.count
    try CanonicalParameters.appendForm(target.query, from: .query, &bytes, &pairs)
    if let form { try CanonicalParameters.appendForm(form, from: .formBody, &bytes, &pairs) }
    let request = first..<pairs.count
    var order = protocolList?.signingOrder(request: request) ?? SigningOrder(request: request)
    if let header {
      // A received header's fields are its protocol parameters: encoded into the protocol
      // writer and sorted there (clients mostly send them in order already).
      try CanonicalParameters.appendHeader(header, &protocolBytes, &pairs)
      order.protocolPairs = request.upperBound..<pairs.count
      CanonicalParameters.sort(order.protocolPairs, protocolBytes, &pairs)
    }
    trace?.recordCollection(bytes, protocolBytes, pairs, order)
    CanonicalParameters.sort(request, bytes, &pairs)
    trace?.recordNormalization(bytes, protocolBytes, pairs, order, target)
    return try ScratchArena.withBytes { baseString throws(OAuthError) in
      // About what the pairs hold (a large request moves to the heap once).
      baseString.reserve(bytes.count + protocolBytes.count)
      BaseString.write(method: method, target: target, order: order, request: bytes, protocol: protocolBytes, pairs, to: &baseString)
      return try body(&bytes, &protocolBytes, &pairs, baseString, order)
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
