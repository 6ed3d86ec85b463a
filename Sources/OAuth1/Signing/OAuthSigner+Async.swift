extension OAuthSigner {
  /// Signs `request`, awaiting the configuration's ``OAuthExternalSigner`` when it has one
  /// (a KMS, an HSM, the Keychain), and returns the header, the protocol parameters and the
  /// base string. Without an external signer it signs in process, as
  /// ``signedRequest(for:nonce:timestamp:)`` does.
  ///
  /// Why a method of its own: the synchronous methods cannot wait for a signature computed
  /// elsewhere; on a signer with an external signer they throw
  /// ``OAuthError/externalSignerNeedsAwait``.
  ///
  /// ```swift
  /// let signed = try await signer.sign(try OAuthRequest(urlRequest))
  /// urlRequest.setValue(signed.authorizationHeader, forHTTPHeaderField: "Authorization")
  /// ```
  /// - Parameters:
  ///   - request: The request as it will be sent.
  ///   - nonce: `oauth_nonce` for this call instead of the configured source's (or a random one).
  ///   - timestamp: `oauth_timestamp` for this call instead of the configured clock's.
  /// - Throws: ``OAuthError/externalSigner(problem:)`` when the external signer fails, and what
  ///   the synchronous methods throw for the request.
  public func sign(_ request: OAuthRequest, nonce: String? = nil, timestamp: Int64? = nil) async throws(OAuthError) -> OAuthSignedRequest {
    guard let externalSigner = configuration.externalSigner else {
      return try signedRequest(for: request, nonce: nonce, timestamp: timestamp)
    }
    return try await engine.signExternally(request, nonce: nonce, timestamp: timestamp, with: externalSigner)
  }
}
