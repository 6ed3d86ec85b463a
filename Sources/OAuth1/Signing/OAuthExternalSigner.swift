/// A signature computed outside the process, by an asynchronous function of yours, given the
/// signature base string's bytes: a cloud KMS, an HSM, the Keychain or a signing service.
///
/// Why: the RSA private key of a production consumer often may not leave the device or the
/// service that holds it, so the signer cannot have an ``RSAPrivateKey``; and such a service
/// answers over the network, so the signature cannot be computed synchronously. The signer
/// prepares everything else (the nonce, the timestamp, the body hash, the base string), awaits
/// your function with the base string's UTF-8 bytes, and puts what it returns, base64'd, in
/// `oauth_signature`. It returns the raw signature: for the RSA methods the RSASSA-PKCS1-v1_5
/// signature over the method's digest (what a KMS's `RSASSA_PKCS1_V1_5_SHA_256` returns), for
/// the HMAC methods the MAC.
///
/// Set it in ``OAuthSigner/Configuration`` (then no `privateKey` is needed) and sign with
/// ``OAuthSigner/sign(_:nonce:timestamp:)``, which awaits it; `OAuthRequestBehavior`, in
/// OAuthNetworking, awaits it for every request it signs.
///
/// ```swift
/// let kms = OAuthExternalSigner { baseString in
///   try await myKMS.sign(keyID: "oauth-consumer", algorithm: .rsaPKCS1SHA256, message: baseString)
/// }
/// let signer = try OAuthSigner(
///   consumer: Credentials(key: consumerKey, secret: ""),
///   configuration: .init(signatureMethod: .rsaSHA256, externalSigner: kms))
/// let signed = try await signer.sign(OAuthRequest(method: "GET", url: "https://api.example.com/v1/accounts"))
/// request.setValue(signed.authorizationHeader, forHTTPHeaderField: "Authorization")
/// ```
///
/// The function may be called from any task, several times at once; an error it throws is
/// reported as ``OAuthError/externalSigner(problem:)`` with its description.
public struct OAuthExternalSigner: Sendable {
  /// Your function: the raw signature of the base string's bytes.
  public let sign: @Sendable (_ baseString: [UInt8]) async throws -> [UInt8]

  /// An external signer that computes each signature with `sign`.
  public init(_ sign: @escaping @Sendable (_ baseString: [UInt8]) async throws -> [UInt8]) {
    self.sign = sign
  }
}
