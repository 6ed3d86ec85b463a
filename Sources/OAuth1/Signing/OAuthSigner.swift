import Foundation
import PercentEncoding

/// A signer kept for one set of credentials and reused for every request: the fast path.
///
/// ``OAuthSignatureGenerator`` computes every stage as a readable String, which is what you
/// want to explain a signature; `OAuthSigner` computes the same signature on bytes, with the
/// credentials encoded once and the HMAC key's pad states hashed once, so a client or a server
/// that signs many requests pays only for what changes. The tests hold both to the same output
/// on the published vectors and on the differential corpus. Immutable and thread-safe.
///
/// ```swift
/// let signer = try OAuthSigner(consumer: consumer, token: token)
/// urlRequest.setValue(try signer.authorizationHeader(for: OAuthRequest(urlRequest)), forHTTPHeaderField: "Authorization")
/// ```
public struct OAuthSigner: Sendable {
  public let consumer: Credentials
  public let token: Credentials?
  public let options: OAuthSignatureGenerator.Options

  private enum Key: Sendable {
    case hmac(PreparedHMACKey)
    case plaintext(String)
    case rsa(RSAPrivateKey, OAuthDigestAlgorithm)
  }

  private let key: Key
  // The protocol parameters that do not change between requests, encoded once.
  private let consumerKeyParameter: EncodedParameter
  private let tokenParameter: EncodedParameter?
  private let callbackParameter: EncodedParameter?
  private let verifierParameter: EncodedParameter?
  private let nonceParameter: EncodedParameter?
  private let methodParameter: EncodedParameter
  private static let versionParameter = EncodedParameter(nameBytes[ProtocolParameterName.version.rawValue], Array("1.0".utf8))
  /// Every name's bytes, made once and shared by all signers (a new signer copies none).
  private static let nameBytes = ProtocolParameterName.allCases.map { Array($0.utf8) }

  /// Prepares the signer. Throws when an RSA method has no private key.
  public init(consumer: Credentials, token: Credentials? = nil, options: OAuthSignatureGenerator.Options = .init()) throws(OAuthError) {
    self.consumer = consumer
    self.token = token
    self.options = options
    let signingKey = OAuthSigningKey.make(consumerSecret: consumer.secret, tokenSecret: token?.secret)
    switch options.signatureMethod.kind {
    case .hmac(let digest):
      key = .hmac(PreparedHMACKey(digest, key: signingKey.utf8))
    case .plaintext:
      key = .plaintext(signingKey)
    case .rsa(let digest):
      guard let privateKey = options.privateKey else { throw .missingPrivateKey(options.signatureMethod) }
      key = .rsa(privateKey, digest)
    }
    func encoded(_ name: ProtocolParameterName, _ value: String) -> EncodedParameter {
      EncodedParameter(Self.nameBytes[name.rawValue], Array(PercentEncoding.encode(value).utf8))
    }
    consumerKeyParameter = encoded(.consumerKey, consumer.key)
    tokenParameter = token.flatMap { $0.key.isEmpty ? nil : encoded(.token, $0.key) }
    callbackParameter = options.callback.map { encoded(.callback, $0) }
    verifierParameter = options.verifier.map { encoded(.verifier, $0) }
    nonceParameter = options.nonce.map { encoded(.nonce, $0) }
    methodParameter = encoded(.signatureMethod, options.signatureMethod.rawValue)
  }

  /// The value of the `Authorization` header for `request` (the same as
  /// ``OAuthSignatureGenerator/authorizationHeader`` for the same nonce and timestamp).
  public func authorizationHeader(for request: OAuthRequest) throws(OAuthError) -> String {
    try withSignature(request) { header($0) }
  }

  /// The protocol parameters with `oauth_signature`, decoded, in name order: for the query or
  /// form-body transmission forms.
  public func signedProtocolParameters(for request: OAuthRequest) throws(OAuthError) -> [OAuthParameter] {
    try withSignature(request) { decodedProtocolParameters($0) }
  }

  /// Signs `request` once and keeps what a caller may want to see: the header, the protocol
  /// parameters and the signature base string (for `--verbose` and debugging; it holds no secret).
  public func signedRequest(for request: OAuthRequest) throws(OAuthError) -> OAuthSignedRequest {
    try withSignature(request) { parts in
      OAuthSignedRequest(
        authorizationHeader: header(parts),
        signedProtocolParameters: decodedProtocolParameters(parts),
        signatureBaseString: String(decoding: parts.baseString, as: UTF8.self))
    }
  }

  // MARK: - Signing

  /// What changes from one signature to the next, encoded, in scratch memory that lives only
  /// for the duration of ``withSignature(_:_:)``.
  struct Parts {
    var bodyHash: UnsafeBufferPointer<UInt8>?
    var nonce: UnsafeBufferPointer<UInt8>
    var timestamp: UnsafeBufferPointer<UInt8>
    var signature: UnsafeBufferPointer<UInt8>
    var baseString: UnsafeBufferPointer<UInt8>
  }

  /// Calls `body` with every protocol parameter in name order (the base string's and the
  /// header's) and its `%` count; `oauth_signature` only when `includingSignature`.
  private func forEachProtocolParameter(
    _ parts: Parts, includingSignature: Bool, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>, Int32) -> Void
  ) {
    func constant(_ parameter: EncodedParameter?) {
      guard let parameter else { return }
      parameter.name.withUnsafeBufferPointer { name in parameter.value.withUnsafeBufferPointer { body(name, $0, parameter.percents) } }
    }
    if let bodyHash = parts.bodyHash { body(ProtocolParameterName.bodyHash.utf8, bodyHash, Self.percents(bodyHash)) }
    constant(callbackParameter)
    constant(consumerKeyParameter)
    body(ProtocolParameterName.nonce.utf8, parts.nonce, Self.percents(parts.nonce))
    if includingSignature { body(ProtocolParameterName.signature.utf8, parts.signature, 0) }
    constant(methodParameter)
    body(ProtocolParameterName.timestamp.utf8, parts.timestamp, 0)
    constant(tokenParameter)
    constant(verifierParameter)
    if options.includeVersion { constant(Self.versionParameter) }
  }

  private func header(_ parts: Parts) -> String {
    let realm = options.realm.map(OAuthAuthorizationHeader.quote)
    var length = 6 + (realm.map { $0.utf8.count + 10 } ?? 0)
    forEachProtocolParameter(parts, includingSignature: true) { name, value, _ in length += name.count + value.count + 5 }
    return String(unsafeUninitializedCapacity: length) { buffer in
      let out = buffer.baseAddress!
      var written = CanonicalParameters.put("OAuth ", out)
      if let realm {
        written += CanonicalParameters.put("realm=\"", out + written)
        for byte in realm.utf8 { out[written] = byte; written += 1 }
        written += CanonicalParameters.put("\", ", out + written)
      }
      var first = true
      forEachProtocolParameter(parts, includingSignature: true) { name, value, _ in
        if !first { written += CanonicalParameters.put(", ", out + written) }
        first = false
        (out + written).update(from: name.baseAddress!, count: name.count)
        written += name.count
        written += CanonicalParameters.put("=\"", out + written)
        if let base = value.baseAddress { (out + written).update(from: base, count: value.count) }
        written += value.count
        out[written] = UInt8(ascii: "\"")
        written += 1
      }
      return written
    }
  }

  private func decodedProtocolParameters(_ parts: Parts) -> [OAuthParameter] {
    var parameters: [OAuthParameter] = []
    forEachProtocolParameter(parts, includingSignature: true) { name, value, _ in
      let encoded = String(decoding: value, as: UTF8.self)
      parameters.append(OAuthParameter(String(decoding: name, as: UTF8.self), PercentEncoding.decode(encoded) ?? encoded))
    }
    return parameters
  }

  /// Signs `request` and lends `body` the result. Nothing here allocates for an ordinary
  /// request signed with HMAC: the parameters, the base string and the signature live in
  /// scratch memory on the stack.
  func withSignature<R>(_ request: OAuthRequest, _ body: (Parts) -> R) throws(OAuthError) -> R {
    try RequestTarget.with(request.url, host: request.host) { target throws(OAuthError) in
      try request.withFormBody { formBody throws(OAuthError) in
        var bodyHash: [UInt8] = []
        if let algorithm = options.bodyHash, formBody == nil {
          let hash = try OAuthBodyHash.compute(body: request.body.map { [UInt8]($0) } ?? [], algorithm: algorithm)
          bodyHash = Array(PercentEncoding.encode(hash).utf8)
        }
        return try bodyHash.withUnsafeBufferPointer { bodyHash throws(OAuthError) in
          // Scratch: the nonce, the timestamp's digits, the digest and its encoding.
          let nonceRoom = max(OAuthNonce.length, nonceParameter?.value.count ?? 0)
          return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: nonceRoom + 24 + Self.signatureRoom) { scratch throws(OAuthError) in
            let base = scratch.baseAddress!
            let nonce = try self.nonce(into: base)
            let timestamp = Self.writeDigits(options.timestamp ?? options.clock.secondsSince1970(), into: base + nonceRoom)
            let parts = Parts(
              bodyHash: options.bodyHash != nil && formBody == nil ? bodyHash : nil, nonce: nonce, timestamp: timestamp,
              signature: UnsafeBufferPointer(start: nil, count: 0), baseString: UnsafeBufferPointer(start: nil, count: 0))
            return try signed(request.method, target, formBody, parts, scratch: base + nonceRoom + 24, body)
          }
        }
      }
    }
  }

  /// Room for the largest digest (SHA-512) and its encoding.
  private static let signatureRoom = 64 + Base64.capacity(64, .header)

  /// Writes the nonce at `out`: the fixed one, encoded, or a fresh random one.
  private func nonce(into out: UnsafeMutablePointer<UInt8>) throws(OAuthError) -> UnsafeBufferPointer<UInt8> {
    if let nonceParameter {
      return nonceParameter.value.withUnsafeBufferPointer { fixed in
        if let base = fixed.baseAddress { out.update(from: base, count: fixed.count) }
        return UnsafeBufferPointer(start: out, count: fixed.count)
      }
    }
    return UnsafeBufferPointer(start: out, count: try OAuthNonce.write(into: out))
  }

  /// The signature of the base string, then `body`.
  private func signed<R>(
    _ method: String, _ target: RequestTarget, _ formBody: UnsafeBufferPointer<UInt8>?, _ parts: Parts,
    scratch: UnsafeMutablePointer<UInt8>, _ body: (Parts) -> R
  ) throws(OAuthError) -> R {
    var protocolBytes = 0, protocolCount = 0
    forEachProtocolParameter(parts, includingSignature: false) { name, value, _ in
      protocolBytes += name.count + value.count
      protocolCount += 1
    }
    let partsSoFar = parts
    return try SignatureBaseStringBuilder.withBaseString(
      method: method, target: target, formBody: formBody, protocolBytes: protocolBytes, protocolCount: protocolCount,
      addProtocolParameters: { parameters in
        forEachProtocolParameter(partsSoFar, includingSignature: false) { name, value, percents in parameters.append(name: name, value: value, percents: percents) }
      }
    ) { baseString, _ throws(OAuthError) in
      var parts = partsSoFar
      parts.baseString = baseString
      switch key {
      case .hmac(let prepared):
        prepared.sign(baseString, into: scratch)
        let encoded = scratch + 64
        let count = Base64.encode(UnsafeBufferPointer(start: scratch, count: prepared.length), .header, into: encoded)
        parts.signature = UnsafeBufferPointer(start: encoded, count: count)
        return body(parts)
      case .plaintext(let signingKey):
        return Array(PercentEncoding.encode(signingKey).utf8).withUnsafeBufferPointer { signature in
          parts.signature = signature
          return body(parts)
        }
      case .rsa(let privateKey, let digest):
        let signature = Array(Base64.string(try privateKey.sign(baseString, digest: digest), .header).utf8)
        return signature.withUnsafeBufferPointer { signature in
          parts.signature = signature
          return body(parts)
        }
      }
    }
  }

  private static func percents(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
    var count: Int32 = 0
    for byte in bytes where byte == UInt8(ascii: "%") { count += 1 }
    return count
  }

  /// Writes the decimal digits of a timestamp (at most 20) at `out`.
  private static func writeDigits(_ value: Int64, into out: UnsafeMutablePointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    var magnitude = value.magnitude
    var reversed = 0
    repeat {
      out[reversed] = UInt8(ascii: "0") + UInt8(magnitude % 10)
      magnitude /= 10
      reversed += 1
    } while magnitude > 0
    var count = reversed
    if value < 0 {
      out[count] = UInt8(ascii: "-")
      count += 1
    }
    var low = 0, high = count - 1
    while low < high {
      let byte = out[low]
      out[low] = out[high]
      out[high] = byte
      low += 1
      high -= 1
    }
    return UnsafeBufferPointer(start: out, count: count)
  }
}

/// A parameter whose name and value are already canonically encoded (a struct rather than a
/// tuple: arrays of tuples make the runtime look up generic metadata on every signature).
struct EncodedParameter {
  var name: [UInt8]
  var value: [UInt8]
  /// How many `%` the pair holds (each becomes `%25` in the base string).
  var percents: Int32

  init(_ name: [UInt8], _ value: [UInt8]) {
    self.name = name
    self.value = value
    var percents: Int32 = 0
    for byte in name where byte == UInt8(ascii: "%") { percents += 1 }
    for byte in value where byte == UInt8(ascii: "%") { percents += 1 }
    self.percents = percents
  }
}

/// One request signed by ``OAuthSigner``.
public struct OAuthSignedRequest: Sendable, Hashable {
  /// The value of the `Authorization` header.
  public let authorizationHeader: String
  /// The protocol parameters with `oauth_signature`, decoded, in name order.
  public let signedProtocolParameters: [OAuthParameter]
  /// The string that was signed.
  public let signatureBaseString: String
}
