internal import CryptoPrimitives
import Foundation
import PercentEncoding

/// Verifies OAuth 1.0a requests on the provider's side: recomputes the signature through the
/// same stages as signing and checks everything else RFC 5849 asks of a server.
///
/// Checks, in this order (the first failure is reported):
/// 0. the request within ``Options/limits`` (sizes and counts checked before or as the parts
///    are read) → `parameter_rejected`, HTTP 413, 414, 431 or 400 (see ``Limits``);
/// 1. protocol parameters present once, in one place (header, query or form body), header
///    well-formed with only `oauth_*` fields → `parameter_rejected`;
/// 2. `oauth_version`, when present, is 1.0 → `version_rejected`;
/// 3. required parameters present → `parameter_absent`;
/// 4. signature method known and allowed (PLAINTEXT only over https unless allowed) →
///    `signature_method_rejected`; no `oauth_body_hash` on a form body, whose parameters are
///    signed themselves → `parameter_rejected`;
/// 5. timestamp within ±`maxClockSkew` → `timestamp_refused` (with the accepted range);
/// 6. consumer known → `consumer_key_unknown`; 7. token known → `token_rejected`;
/// 8. signature, compared in constant time → `signature_invalid` (with our base string), and
///    `oauth_body_hash`, when present, equal to the hash of the body as received →
///    `signature_invalid` naming it (OAuth Request Body Hash draft, section 4.2). Under
///    PLAINTEXT, which signs nothing of the request, this comparison is all that ties the body
///    to the request (oauthlib's client sends a body hash with PLAINTEXT too);
/// 9. nonce not seen before → `nonce_used` (recorded only for requests that passed 1–8, so
///    unsigned garbage cannot fill the store); a store that throws → `temporarily_unavailable`
///    (HTTP 503, the store's error in ``OAuthVerificationError/cause``): never accepted.
///
/// ```swift
/// let verifier = OAuthVerifier(credentials: InMemoryCredentialLookup(
///   consumers: ["app-key": OAuthConsumer(secret: "app-secret")], tokens: ["user-token": "user-secret"]))
/// let verified = try await verifier.verify(
///   OAuthRequest(method: "GET", url: "https://api.example.com/items?page=2"),
///   authorization: request.headers["Authorization"])
/// print(verified.consumerKey, verified.token ?? "-")
/// ```
public struct OAuthVerifier: Sendable {
  /// What a verifier accepts: the signature methods, PLAINTEXT over plain http, how far timestamps may be off, and the clock.
  public struct Options: Sendable {
    /// The methods accepted; the others are `signature_method_rejected`.
    public var allowedSignatureMethods: Set<OAuthSignatureMethod>
    /// PLAINTEXT sends the secrets themselves, so by default it is accepted over https only.
    public var allowPlaintextOverHTTP: Bool
    /// How far `oauth_timestamp` may be from the verifier's clock, in seconds; a negative value counts as 0, and the window
    /// `clock ± maxClockSkew` stops at the ends of `Int64` (no value traps).
    public var maxClockSkew: Int64
    /// The clock `oauth_timestamp` is checked against (and that ages out the default nonce store's entries); a `FixedClock`
    /// checks a captured request at the time it was sent.
    public var clock: any OAuthClock
    /// The URL signatures are checked against when a proxy stands in front: the URL as
    /// received by default (see ``OAuthPublicURL``).
    public var publicURL: OAuthPublicURL = .asReceived
    /// How much of a request is read before any credential is checked: sizes and counts past
    /// which a request is refused unread (see ``Limits``).
    public var limits: Limits

    /// Creates options; the defaults accept every method, PLAINTEXT over https only, and timestamps within 5 minutes of the system clock.
    /// - Parameters:
    ///   - allowedSignatureMethods: The methods accepted, all seven by default; the others are `signature_method_rejected`.
    ///   - allowPlaintextOverHTTP: Whether to accept PLAINTEXT on an `http` URL; `false` by default, as it sends the secrets in clear.
    ///   - maxClockSkew: How far `oauth_timestamp` may be from `clock`, in seconds, either way; 300 by default.
    ///   - clock: The clock timestamps are checked against; the system clock by default.
    ///   - limits: The sizes and counts a request may have; ``Limits/init(maximumURLBytes:maximumAuthorizationHeaderBytes:maximumFormBodyBytes:maximumParameters:maximumProtocolParameters:)``'s
    ///     defaults by default.
    public init(
      allowedSignatureMethods: Set<OAuthSignatureMethod> = Set(OAuthSignatureMethod.allCases),
      allowPlaintextOverHTTP: Bool = false, maxClockSkew: Int64 = 300, clock: any OAuthClock = SystemClock(), limits: Limits = Limits()
    ) {
      self.allowedSignatureMethods = allowedSignatureMethods
      self.allowPlaintextOverHTTP = allowPlaintextOverHTTP
      self.maxClockSkew = maxClockSkew
      self.clock = clock
      self.limits = limits
    }
  }

  /// Where the verifier finds, for each request, the consumer's secret or RSA public key and the token's secret.
  public let credentials: any OAuthCredentialLookup
  /// Where the nonce of each request that passes every other check is recorded; a nonce already there is `nonce_used`.
  public let nonceStore: any OAuthNonceStore
  /// What the verifier accepts: signature methods, PLAINTEXT over http, clock skew and clock.
  public let options: Options
  /// HMAC keys prepared once per (consumer, token).
  private let preparedKeys = PreparedKeyCache()

  /// Creates a verifier.
  /// - Parameters:
  ///   - credentials: Where the secrets and public keys of the credentials a request names are looked up.
  ///   - nonceStore: Where nonces are recorded to refuse replays; `nil` (the default) for an ``InMemoryNonceStore`` of this
  ///     verifier alone, keeping each nonce `2 × maxClockSkew` seconds on `options.clock`. Pass a shared store when several
  ///     verifiers or processes serve the same credentials, or a replay sent to another one is not caught.
  ///   - options: What is accepted; see ``Options``.
  public init(credentials: any OAuthCredentialLookup, nonceStore: (any OAuthNonceStore)? = nil, options: Options = Options()) {
    self.credentials = credentials
    self.options = options
    let doubled = Self.skew(options).multipliedReportingOverflow(by: 2)
    self.nonceStore = nonceStore ?? InMemoryNonceStore(window: doubled.overflow ? .max : doubled.partialValue, clock: options.clock)
  }

  /// `maxClockSkew`, negative counted as 0.
  private static func skew(_ options: Options) -> Int64 { max(0, options.maxClockSkew) }

  /// A value of the request for an advice: quoted, cut if long.
  private func quoted(_ value: String) -> String { OAuthVerificationError.quoted(value) }

  /// Verifies `request` (the URL as received, with its raw query; the body and content type;
  /// the `Host` header if it differs from the URL) with its `Authorization` header, if any.
  ///
  /// Behind a reverse proxy, pass the request's `headers` and the `peerAddress` of the
  /// connection too: with ``Options/publicURL`` set, the signature is checked against the URL
  /// the client called, not the one the proxy forwarded to.
  public func verify(
    _ request: OAuthRequest, authorization: String?, headers: [(name: String, value: String)] = [], peerAddress: String? = nil
  ) async throws(OAuthVerificationError) -> VerifiedRequest {
    var request = request
    if options.publicURL != .asReceived {
      let url = options.publicURL.resolve(url: request.url, host: request.host, headers: headers, peerAddress: peerAddress)
      if url != request.url {
        request.url = url
        request.host = nil
      }
    }
    let located = try ProtocolParameters.locate(request: request, authorization: authorization, limits: options.limits)
    let oauth = located.values

    if let version = oauth[.version], version != "1.0" {
      throw OAuthVerificationError(.versionRejected, advice: "oauth_version is \(quoted(version)); only 1.0 is supported")
    }
    guard let methodName = oauth[.signatureMethod] else {
      let all: [ProtocolParameters.Name] = [.consumerKey, .signatureMethod, .signature, .timestamp, .nonce]
      throw absent(all.filter { oauth[$0] == nil })
    }
    let method: OAuthSignatureMethod
    do {
      method = try OAuthSignatureMethod(name: methodName)
    } catch {
      throw OAuthVerificationError(.signatureMethodRejected, advice: "the signature method \(quoted(methodName)) is not supported")
    }
    let required: [ProtocolParameters.Name] = method == .plaintext ? [.consumerKey, .signature] : [.consumerKey, .signature, .timestamp, .nonce]
    let missing = required.filter { oauth[$0] == nil }
    if !missing.isEmpty { throw absent(missing) }
    let consumerKey = oauth[.consumerKey]!, signature = oauth[.signature]!

    guard options.allowedSignatureMethods.contains(method) else {
      throw OAuthVerificationError(
        .signatureMethodRejected,
        advice:
          "\(method.rawValue) is not accepted here; use one of \(options.allowedSignatureMethods.map(\.rawValue).sorted().joined(separator: ", "))")
    }
    if method == .plaintext && !options.allowPlaintextOverHTTP && !request.url.lowercased().hasPrefix("https:") {
      throw OAuthVerificationError(.signatureMethodRejected, advice: "PLAINTEXT sends the secrets in clear and is accepted over https only")
    }
    if oauth[.bodyHash] != nil && request.hasFormBody {
      throw OAuthVerificationError(
        .parameterRejected, advice: "oauth_body_hash is not sent with a form body, whose parameters are signed themselves; leave it out",
        parameters: ["oauth_body_hash"])
    }

    var timestamp: Int64?
    if let text = oauth[.timestamp] {
      let now = options.clock.secondsSince1970(), skew = Self.skew(options)
      // Saturated at the ends of Int64: no clock or skew overflows.
      let lower = now.subtractingReportingOverflow(skew), upper = now.addingReportingOverflow(skew)
      let window = (lower.overflow ? .min : lower.partialValue)...(upper.overflow ? .max : upper.partialValue)
      guard let value = Int64(text), value >= 0 else {
        throw OAuthVerificationError(
          .parameterRejected, advice: "oauth_timestamp \(quoted(text)) is not a number of seconds", parameters: ["oauth_timestamp"])
      }
      guard window.contains(value) else {
        let offset = value.subtractingReportingOverflow(now)
        let distance = offset.overflow ? "more than \(Int64.max)" : "\(offset.partialValue)"
        throw OAuthVerificationError(
          .timestampRefused,
          advice: "oauth_timestamp \(value) is \(distance) s from the server's clock; the accepted window is ±\(skew) s. Check the sender's clock",
          acceptableTimestamps: window)
      }
      timestamp = value
    }

    let consumer: OAuthConsumer?
    do { consumer = try await credentials.consumer(forKey: consumerKey) } catch {
      throw OAuthVerificationError(.consumerKeyUnknown, advice: "the consumer key could not be looked up: \(error)")
    }
    guard let consumer else {
      throw OAuthVerificationError(.consumerKeyUnknown, advice: "no consumer has the key \(quoted(consumerKey))")
    }
    let token = oauth[.token]
    var tokenSecret: String?
    if let token {
      do { tokenSecret = try await credentials.tokenSecret(forToken: token, consumerKey: consumerKey) } catch {
        throw OAuthVerificationError(.tokenRejected, advice: "the token could not be looked up: \(error)")
      }
      guard tokenSecret != nil else {
        throw OAuthVerificationError(.tokenRejected, advice: "the token \(quoted(token)) is unknown, expired or revoked")
      }
    }

    let key = try verificationKey(method, consumerKey: consumerKey, consumer: consumer, token: token, tokenSecret: tokenSecret)
    let computation = try Self.checkSignature(signature, with: key, request: request, located: located)
    if let bodyHash = oauth[.bodyHash] { try Self.checkBodyHash(bodyHash, body: request.body) }

    if let nonce = oauth[.nonce], let timestamp {
      let firstUse: Bool
      do { firstUse = try await nonceStore.insert(nonce: nonce, timestamp: timestamp, consumerKey: consumerKey, token: token) } catch {
        throw Self.storeFailed(error)
      }
      guard firstUse else {
        throw OAuthVerificationError(
          .nonceUsed, advice: "this nonce was already used with this timestamp: the request is a replay, or the sender reuses nonces")
      }
    }
    return VerifiedRequest(
      consumerKey: consumerKey, token: token, signatureMethod: method, realm: located.realm, callback: oauth[.callback],
      verifier: oauth[.verifier], baseString: computation)
  }

  /// The signature covers `oauth_body_hash`, not the body: the body is proved only when it
  /// hashes to that value. The digest is told by the hash's length (SHA-1 as the draft says,
  /// SHA-256 or SHA-512 as Mastercard and others use).
  private static func checkBodyHash(_ value: String, body: Data?) throws(OAuthVerificationError) {
    let length = OAuthBase64.decode(value)?.count
    let algorithm = OAuthDigestAlgorithm.allCases.first { $0.byteCount == length }
    let body = body.map { [UInt8]($0) } ?? []
    guard let algorithm, let expected = try? OAuthBodyHash.compute(body: body, algorithm: algorithm),
      ConstantTime.equals(Array(expected.utf8), value)
    else {
      throw OAuthVerificationError(
        .signatureInvalid,
        advice:
          "oauth_body_hash does not match the body received (\(body.count) bytes): the body changed after it was hashed, or was hashed with another digest",
        parameters: ["oauth_body_hash"])
    }
  }

  /// A nonce store that cannot answer fails the request closed: it might be a replay. The
  /// store's error is kept for the provider's logs, not sent to the client.
  private static func storeFailed(_ error: any Error) -> OAuthVerificationError {
    var failure = OAuthVerificationError(
      .temporarilyUnavailable, advice: "the server cannot check this request's nonce right now; send the request again later")
    failure.cause = OAuthVerificationError.escaped(String(describing: error), limit: OAuthVerificationError.maximumAdviceLength)
    return failure
  }

  private func absent(_ names: [ProtocolParameters.Name]) -> OAuthVerificationError {
    let names = names.map(\.text)
    return OAuthVerificationError(.parameterAbsent, advice: "the request lacks \(names.joined(separator: ", "))", parameters: names)
  }

  /// Computes the base string through the signing engine's stages 2 to 5 and checks the
  /// signature against it; returns the base string and the request's own parameters.
  private static func checkSignature(
    _ signature: String, with key: VerificationKey, request: OAuthRequest, located: ProtocolParameters
  ) throws(OAuthVerificationError) -> [UInt8] {
    let outcome: (accepted: Bool, baseString: [UInt8])
    do {
      outcome = try located.withBaseString(of: request) { scratch, baseString in
        (key.accepts(signature, for: baseString, scratch: &scratch), baseString.bytes(0..<baseString.count))
      }
    } catch {
      throw OAuthVerificationError(.parameterRejected, advice: "the request cannot be verified: \(error)")
    }
    guard outcome.accepted else {
      throw OAuthVerificationError(
        .signatureInvalid, advice: "the signature does not match the request; compare the sender's signature base string with the verifier's",
        signatureBaseString: String(decoding: outcome.baseString, as: UTF8.self))
    }
    return outcome.baseString
  }

  /// The key that checks `method`'s signatures for these credentials: for HMAC, the prepared
  /// key cached per (consumer, token).
  private func verificationKey(
    _ method: OAuthSignatureMethod, consumerKey: String, consumer: OAuthConsumer, token: String?, tokenSecret: String?
  ) throws(OAuthVerificationError) -> VerificationKey {
    if case .rsa(let digest) = method.kind {
      guard let key = consumer.rsaPublicKey else {
        throw OAuthVerificationError(
          .signatureMethodRejected, advice: "this consumer has no RSA public key, so \(method.rawValue) cannot be verified")
      }
      return .rsa(key, digest)
    }
    guard let secret = consumer.secret else {
      throw OAuthVerificationError(.signatureMethodRejected, advice: "this consumer has no shared secret, so \(method.rawValue) cannot be verified")
    }
    guard case .hmac(let digest) = method.kind else {
      return .shared(.plaintext(OAuthSigningKey.make(consumerSecret: secret, tokenSecret: tokenSecret)))
    }
    return .shared(.hmac(preparedKeys.key(digest, consumerKey: consumerKey, consumerSecret: secret, token: token, tokenSecret: tokenSecret)))
  }
}

/// What a verified request proved.
public struct VerifiedRequest: Sendable, Hashable {
  /// The `oauth_consumer_key` the request was signed with, which the credential lookup knew.
  public let consumerKey: String
  /// The `oauth_token` the request was signed with, which the credential lookup knew; `nil` for a request signed with consumer
  /// credentials only (a temporary-credentials request, a one-legged call).
  public let token: String?
  /// The method the signature was checked with, from `oauth_signature_method`.
  public let signatureMethod: OAuthSignatureMethod
  /// The `realm` of the Authorization header, which is not signed and so proves nothing; `nil` when the header had none or the
  /// protocol parameters came in the query or form body.
  public let realm: String?
  /// The signed parameters that are not protocol parameters (query and form body), decoded,
  /// in signing order.
  ///
  /// Read from the base string when asked for: a verification makes no String its caller
  /// does not ask for.
  public var parameters: [OAuthParameter] {
    // `METHOD&URI&enc(normalized)`: the first two `&` end the method and the URI.
    guard let first = baseString.firstIndex(of: UInt8(ascii: "&")),
      let second = baseString[(first + 1)...].firstIndex(of: UInt8(ascii: "&"))
    else { return [] }
    let normalized = PercentEncoding.decodeBytes(baseString[(second + 1)...])
    var parameters: [OAuthParameter] = []
    PercentEncoding.forEachFormPair(in: normalized) { name, value in
      let decodedName = PercentEncoding.decodeBytes(name)
      guard !decodedName.starts(with: "oauth_".utf8) else { return }
      parameters.append(OAuthParameter(Self.string(decodedName), Self.string(PercentEncoding.decodeBytes(value))))
    }
    return parameters
  }
  /// `oauth_callback`, decoded, sent with a temporary-credentials request: the URL to send the user back to after authorization,
  /// or `oob` for none; `nil` when absent.
  public let callback: String?
  /// `oauth_verifier`, decoded, sent with a token-credentials request; `OAuthVerifier` does not check its value, so compare it
  /// with the one you issued. `nil` when absent.
  public let verifier: String?
  /// The signature base string the verifier computed and the signature matched, for logs; it holds no secret.
  public var signatureBaseString: String { String(decoding: baseString, as: UTF8.self) }

  /// The base string's bytes: ``signatureBaseString`` and ``parameters`` are read from them.
  let baseString: [UInt8]

  /// Decoded canonical bytes, which the verifier checked are UTF-8.
  private static func string(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
