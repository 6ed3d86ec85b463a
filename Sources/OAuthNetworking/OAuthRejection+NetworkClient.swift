import NetworkClient
import OAuth1

extension OAuthRejection {
  /// A refusal `NetworkClient` reported as ``NetworkError/httpStatus(_:)``, explained with the
  /// base string that was signed, which ``OAuthRequestBehavior``'s `onSign` hands you.
  ///
  /// ```swift
  /// let signed = Locked<String?>(nil)
  /// let signer = OAuthRequestBehavior(consumer: consumer, token: token) { base in signed.withLock { $0 = base } }
  /// do {
  ///   _ = try await NetworkClient(baseURL: api, behavior: signer).send(request)
  /// } catch .httpStatus(let failure) {
  ///   print(OAuthRejection(failure, signatureBaseString: signed.withLock { $0 }))
  /// }
  /// ```
  public init(_ failure: HTTPStatusFailure, signatureBaseString: String?) {
    self.init(
      status: failure.statusCode, body: String(decoding: failure.body, as: UTF8.self), wwwAuthenticate: failure.headers["WWW-Authenticate"],
      signatureBaseString: signatureBaseString)
  }
}
