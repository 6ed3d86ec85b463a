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
  // The protocol parameters that do not change between requests, encoded once.
  private let consumerKeyParameter: EncodedParameter
  private let tokenParameter: EncodedParameter?
  private let callbackParameter: EncodedParameter?
  private let verifierParameter: EncodedParameter?
  private let nonceParameter: EncodedParameter?
  private let methodParameter: EncodedParameter
  private static let versionParameter = EncodedParameter(Names.oauthVersion, Array("1.0".utf8))

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
    func encoded(_ name: [UInt8], _ value: String) -> EncodedParameter {
      EncodedParameter(name, Array(PercentEncoding.encode(value).utf8))
    }
    consumerKeyParameter = encoded(Names.oauthConsumerKey, consumer.key)
    tokenParameter = token.map { encoded(Names.oauthToken, $0.key) }
    callbackParameter = options.callback.map { encoded(Names.oauthCallback, $0) }
    verifierParameter = options.verifier.map { encoded(Names.oauthVerifier, $0) }
    nonceParameter = options.nonce.map { encoded(Names.oauthNonce, $0) }
    methodParameter = encoded(Names.oauthSignatureMethod, options.signatureMethod.rawValue)
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
    var protocolParameters: [EncodedParameter]
    var baseString: [UInt8]

    var decodedProtocolParameters: [OAuthParameter] {
      protocolParameters.map { parameter in
        OAuthParameter(String(decoding: parameter.name, as: UTF8.self), PercentEncoding.decode(String(decoding: parameter.value, as: UTF8.self)) ?? "")
      }
    }

    func header(realm: String?) -> String {
      var length = 6 + (realm.map { OAuthAuthorizationHeader.quote($0).utf8.count + 10 } ?? 0)
      for parameter in protocolParameters { length += parameter.name.count + parameter.value.count + 5 }
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
          parameter.name.withUnsafeBufferPointer { name in
            out.advanced(by: written).update(from: name.baseAddress!, count: name.count)
          }
          written += parameter.name.count
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
    var protocolParameters: [EncodedParameter] = []
    protocolParameters.reserveCapacity(10)
    if let algorithm = options.bodyHash, !isForm {
      let hash = try OAuthBodyHash.compute(body: request.body.map { [UInt8]($0) } ?? [], algorithm: algorithm)
      protocolParameters.append(EncodedParameter(Names.oauthBodyHash, Array(PercentEncoding.encode(hash).utf8)))
    }
    if let callbackParameter { protocolParameters.append(callbackParameter) }
    protocolParameters.append(consumerKeyParameter)
    if let nonceParameter {
      protocolParameters.append(nonceParameter)
    } else {
      protocolParameters.append(EncodedParameter(Names.oauthNonce, Array(try OAuthNonce.random().utf8)))
    }
    // Everything before here sorts before "oauth_signature"; the signature goes in here later.
    let signatureIndex = protocolParameters.count
    protocolParameters.append(methodParameter)
    protocolParameters.append(EncodedParameter(Names.oauthTimestamp, Self.digits(options.timestamp ?? options.clock.secondsSince1970())))
    if let tokenParameter { protocolParameters.append(tokenParameter) }
    if let verifierParameter { protocolParameters.append(verifierParameter) }
    if options.includeVersion { protocolParameters.append(Self.versionParameter) }

    let baseString = try SignatureBaseStringBuilder.build(
      method: request.method, target: target, formBody: formBody, protocolParameters: protocolParameters
    ).baseString

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
    protocolParameters.insert(EncodedParameter(Names.oauthSignature, signature), at: signatureIndex)
    return Signed(protocolParameters: protocolParameters, baseString: baseString)
  }


  /// The decimal digits of a timestamp.
  private static func digits(_ value: Int64) -> [UInt8] {
    Array(String(value).utf8)
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

/// The protocol parameters' names as bytes, made once.
enum Names {
  static let oauthBodyHash = Array("oauth_body_hash".utf8)
  static let oauthCallback = Array("oauth_callback".utf8)
  static let oauthConsumerKey = Array("oauth_consumer_key".utf8)
  static let oauthNonce = Array("oauth_nonce".utf8)
  static let oauthSignature = Array("oauth_signature".utf8)
  static let oauthSignatureMethod = Array("oauth_signature_method".utf8)
  static let oauthTimestamp = Array("oauth_timestamp".utf8)
  static let oauthToken = Array("oauth_token".utf8)
  static let oauthVerifier = Array("oauth_verifier".utf8)
  static let oauthVersion = Array("oauth_version".utf8)
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
