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
    case rsa(RSAPrivateKey)
  }

  private let key: Key
  private let encodedConsumerKey: [UInt8]
  private let encodedToken: [UInt8]?
  private let encodedCallback: [UInt8]?
  private let encodedVerifier: [UInt8]?
  private let encodedNonce: [UInt8]?
  private let methodName: [UInt8]

  /// Prepares the signer. Throws when an RSA method has no private key.
  public init(consumer: Credentials, token: Credentials? = nil, options: OAuthSignatureGenerator.Options = .init()) throws(OAuthError) {
    self.consumer = consumer
    self.token = token
    self.options = options
    let signingKey = OAuthSigningKey.make(consumerSecret: consumer.secret, tokenSecret: token?.secret)
    switch options.signatureMethod {
    case .hmacSHA1, .hmacSHA256, .hmacSHA512:
      key = .hmac(PreparedHMACKey(options.signatureMethod.digest!, key: signingKey.utf8))
    case .plaintext:
      key = .plaintext(signingKey)
    case .rsaSHA1, .rsaSHA256, .rsaSHA512:
      guard let privateKey = options.privateKey else { throw .missingPrivateKey(options.signatureMethod) }
      key = .rsa(privateKey)
    }
    encodedConsumerKey = Array(PercentEncoding.encode(consumer.key).utf8)
    encodedToken = token.map { Array(PercentEncoding.encode($0.key).utf8) }
    encodedCallback = options.callback.map { Array(PercentEncoding.encode($0).utf8) }
    encodedVerifier = options.verifier.map { Array(PercentEncoding.encode($0).utf8) }
    encodedNonce = options.nonce.map { Array(PercentEncoding.encode($0).utf8) }
    methodName = Array(options.signatureMethod.rawValue.utf8)
  }

  /// The value of the `Authorization` header for `request` (the same as
  /// ``OAuthSignatureGenerator/authorizationHeader`` for the same nonce and timestamp).
  public func authorizationHeader(for request: OAuthRequest) throws(OAuthError) -> String {
    let signed = try sign(request)
    return signed.header(realm: options.realm)
  }

  /// The protocol parameters with `oauth_signature`, decoded, in name order: for the query or
  /// form-body transmission forms.
  public func signedProtocolParameters(for request: OAuthRequest) throws(OAuthError) -> [OAuthParameter] {
    try sign(request).decodedProtocolParameters
  }

  /// Signs `request` once and keeps what a caller may want to see: the header, the protocol
  /// parameters and the signature base string (for `--verbose` and debugging; it holds no secret).
  public func signedRequest(for request: OAuthRequest) throws(OAuthError) -> OAuthSignedRequest {
    let signed = try sign(request)
    return OAuthSignedRequest(
      authorizationHeader: signed.header(realm: options.realm),
      signedProtocolParameters: signed.decodedProtocolParameters,
      signatureBaseString: String(decoding: signed.baseString, as: UTF8.self))
  }

  // MARK: - Signing

  /// The protocol parameters of one signed request, encoded, in name order.
  struct Signed {
    var protocolParameters: [(name: StaticString, value: [UInt8])]
    var baseString: [UInt8]

    var decodedProtocolParameters: [OAuthParameter] {
      protocolParameters.map { parameter in
        OAuthParameter(String(decoding: parameter.name.utf8Span, as: UTF8.self), PercentEncoding.decode(String(decoding: parameter.value, as: UTF8.self)) ?? "")
      }
    }

    func header(realm: String?) -> String {
      var length = 6 + (realm.map { OAuthAuthorizationHeader.quote($0).utf8.count + 10 } ?? 0)
      for parameter in protocolParameters { length += parameter.name.utf8CodeUnitCount + parameter.value.count + 5 }
      return String(unsafeUninitializedCapacity: length) { buffer in
        let out = buffer.baseAddress!
        var written = CanonicalParameters.put("OAuth ", out)
        if let realm {
          written += CanonicalParameters.put("realm=\"", out + written)
          for byte in OAuthAuthorizationHeader.quote(realm).utf8 { out[written] = byte; written += 1 }
          written += CanonicalParameters.put("\", ", out + written)
        }
        for (position, parameter) in protocolParameters.enumerated() {
          if position > 0 { written += CanonicalParameters.put(", ", out + written) }
          out.advanced(by: written).update(from: parameter.name.utf8Start, count: parameter.name.utf8CodeUnitCount)
          written += parameter.name.utf8CodeUnitCount
          written += CanonicalParameters.put("=\"", out + written)
          parameter.value.withUnsafeBufferPointer { value in
            out.advanced(by: written).update(from: value.baseAddress!, count: value.count)
          }
          written += parameter.value.count
          out[written] = UInt8(ascii: "\"")
          written += 1
        }
        return written
      }
    }
  }

  func sign(_ request: OAuthRequest) throws(OAuthError) -> Signed {
    let target = try RequestTarget(request.url, host: request.host)
    let isForm = request.hasFormBody
    let formBody = isForm ? request.body : nil

    // The protocol parameters, in name order (each value already encoded).
    var protocolParameters: [(name: StaticString, value: [UInt8])] = []
    protocolParameters.reserveCapacity(10)
    if let algorithm = options.bodyHash, !isForm {
      let hash = try OAuthBodyHash.compute(body: request.body.map { [UInt8]($0) } ?? [], algorithm: algorithm)
      protocolParameters.append(("oauth_body_hash", Array(PercentEncoding.encode(hash).utf8)))
    }
    if let encodedCallback { protocolParameters.append(("oauth_callback", encodedCallback)) }
    protocolParameters.append(("oauth_consumer_key", encodedConsumerKey))
    let nonce: [UInt8]
    if let encodedNonce { nonce = encodedNonce } else { nonce = Array(try OAuthNonce.random().utf8) }
    protocolParameters.append(("oauth_nonce", nonce))
    // Everything before here sorts before "oauth_signature"; the signature goes in here later.
    let signatureIndex = protocolParameters.count
    protocolParameters.append(("oauth_signature_method", methodName))
    protocolParameters.append(("oauth_timestamp", Self.digits(options.timestamp ?? options.clock.secondsSince1970())))
    if let encodedToken { protocolParameters.append(("oauth_token", encodedToken)) }
    if let encodedVerifier { protocolParameters.append(("oauth_verifier", encodedVerifier)) }
    if options.includeVersion { protocolParameters.append(("oauth_version", Self.version)) }

    // Every signed parameter, canonically encoded and sorted.
    var encodedLength = 0
    for parameter in protocolParameters { encodedLength += parameter.name.utf8CodeUnitCount + parameter.value.count }
    var parameters = CanonicalParameters(rawBytes: target.query.count + (formBody?.count ?? 0), encodedBytes: encodedLength)
    try target.query.withUnsafeBufferPointer { query throws(OAuthError) in
      try parameters.appendForm(query, source: .query)
    }
    if let formBody {
      // Data.withUnsafeBytes rethrows untyped errors, so the typed one travels in a Result.
      let outcome: Result<Void, OAuthError> = formBody.withUnsafeBytes { raw in
        Result { () throws(OAuthError) in try parameters.appendForm(raw.bindMemory(to: UInt8.self), source: .formBody) }
      }
      try outcome.get()
    }
    for parameter in protocolParameters {
      parameter.value.withUnsafeBufferPointer { value in parameters.appendEncoded(name: parameter.name.utf8Span, value: value) }
    }
    parameters.sort()

    // METHOD&enc(URI)&enc(normalized), written once into one buffer.
    let method = Self.encodedMethod(request.method)
    let uri = target.encodedBaseStringURI
    let length = method.count + 1 + uri.count + 1 + parameters.baseStringLength
    let baseString = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
      let out = buffer.baseAddress!
      method.withUnsafeBufferPointer { out.update(from: $0.baseAddress!, count: $0.count) }
      var written = method.count
      out[written] = UInt8(ascii: "&")
      written += 1
      uri.withUnsafeBufferPointer { (out + written).update(from: $0.baseAddress!, count: $0.count) }
      written += uri.count
      out[written] = UInt8(ascii: "&")
      written += 1
      written += parameters.writeBaseString(into: out + written)
      count = written
    }

    let signature: [UInt8]
    switch key {
    case .hmac(let prepared):
      var digest = [UInt8](repeating: 0, count: prepared.length)
      baseString.withUnsafeBufferPointer { message in
        digest.withUnsafeMutableBufferPointer { prepared.sign(message, into: $0.baseAddress!) }
      }
      signature = Base64Bytes.encodeForHeader(digest)
    case .plaintext(let signingKey):
      signature = Array(PercentEncoding.encode(signingKey).utf8)
    case .rsa(let privateKey):
      signature = Base64Bytes.encodeForHeader(try privateKey.sign(baseString, digest: options.signatureMethod.digest!))
    }
    protocolParameters.insert(("oauth_signature", signature), at: signatureIndex)
    return Signed(protocolParameters: protocolParameters, baseString: baseString)
  }

  private static let version = Array("1.0".utf8)
  private static let get = Array("GET".utf8)
  private static let post = Array("POST".utf8)

  /// The decimal digits of a timestamp.
  private static func digits(_ value: Int64) -> [UInt8] {
    Array(String(value).utf8)
  }

  /// `enc(METHOD)`: the method uppercased and encoded (an ordinary method is already both).
  private static func encodedMethod(_ method: String) -> [UInt8] {
    switch method {
    case "GET": return get
    case "POST": return post
    default: break
    }
    let bytes = Array(method.utf8)
    if !bytes.isEmpty, bytes.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) { return bytes }
    return Array(PercentEncoding.encode(method.uppercased()).utf8)
  }
}

extension StaticString {
  var utf8Span: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: utf8Start, count: utf8CodeUnitCount) }
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
