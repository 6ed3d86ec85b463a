import Foundation
import NetworkClient
import OAuth1
import PercentEncoding

/// Signs every request a `NetworkClient` sends with OAuth 1.0a: the bridge between the
/// signer, which knows no networking, and the client, which knows no OAuth.
///
/// It is a signer (`RequestBehavior.isSigner`), so it runs after every other behavior's
/// `modify`, on the final request, and again on every retry with a fresh nonce and timestamp.
/// Query and form-body parameters are signed; JSON and other bodies are not, unless the
/// configuration's `bodyHash` adds `oauth_body_hash`. It holds only immutable values and is
/// safe to share; every request gets its own nonce from the configuration's source. A
/// configuration with an `OAuthExternalSigner` (a KMS, an HSM, the Keychain) is awaited for
/// every signature, retries included.
///
/// ```swift
/// let signer = OAuthRequestBehavior(
///   consumer: Credentials(key: consumerKey, secret: consumerSecret),
///   token: Credentials(key: accessToken, secret: accessTokenSecret))
/// let client = NetworkClient(baseURL: URL(string: "https://api.x.com")!, behavior: signer)
/// ```
public struct OAuthRequestBehavior: RequestBehavior {
  /// Where the protocol parameters travel (RFC 5849, section 3.5).
  public enum Placement: Sendable, Hashable {
    /// The `Authorization: OAuth ...` header: the default, and what X expects.
    case header
    /// Appended to the query.
    case query
  }

  /// The application's consumer key and secret; the secret is secret.
  public let consumer: Credentials
  /// The token credentials (the user's access token and its secret, which is secret), or the temporary credentials during
  /// the flow; `nil` signs with the consumer credentials alone, as step 1 of the flow and two-legged OAuth do.
  public let token: Credentials?
  /// The signature method, realm, callback, verifier, body hash, clock and nonce source of every signature.
  public let configuration: OAuthSigner.Configuration
  /// Where the protocol parameters go; ``OAuthRequestBehavior/Placement/header`` unless the provider asks otherwise.
  public let placement: Placement
  /// Told the signature base string of every request signed (it holds no secret), for
  /// `--verbose` output and debugging.
  public let onSign: (@Sendable (_ baseString: String) -> Void)?
  /// Whether the text fields of a `multipart/form-data` body are signed as if they were form
  /// parameters (the file parts never are). RFC 5849 signs no multipart body, but Flickr's
  /// upload does ("all other POST parameters should be included", upload.api.html): only a
  /// provider that says so sets it (``OAuthProvider/flickr``).
  public var signsMultipartTextFields = false

  /// A signer for these credentials. It does not throw: a configuration the signer cannot use (an RSA method without a
  /// key) makes every request fail with the signer's error instead.
  ///
  /// - Parameters:
  ///   - consumer: the application's consumer key and secret.
  ///   - token: the user's token credentials; `nil` to sign with the consumer credentials alone.
  ///   - configuration: the signature method, realm, body hash, clock and nonce source; HMAC-SHA1 by default.
  ///   - placement: where the protocol parameters go; the `Authorization` header by default.
  ///   - onSign: told the signature base string of every request signed (it holds no secret), for `--verbose` output
  ///     and debugging; `nil` for none.
  public init(
    consumer: Credentials,
    token: Credentials? = nil,
    configuration: OAuthSigner.Configuration = .init(),
    placement: Placement = .header,
    onSign: (@Sendable (_ baseString: String) -> Void)? = nil
  ) {
    self.consumer = consumer
    self.token = token
    self.configuration = configuration
    self.placement = placement
    self.onSign = onSign
    signer = Result { () throws(OAuthError) in try OAuthSigner(consumer: consumer, token: token, configuration: configuration) }
  }

  /// Prepared once per credentials (encoded keys, HMAC pad states); an unusable configuration
  /// (an RSA method without a key) fails every request with its error.
  private let signer: Result<OAuthSigner, OAuthError>

  public var isSigner: Bool { true }

  public func modify(_ request: HTTPRequest) async throws -> HTTPRequest {
    if request.bodyFile != nil, configuration.bodyHash != nil {
      throw NetworkError.invalidRequest(
        reason: "oauth_body_hash cannot cover a body streamed from a file (a multipart upload with files); send the body in memory")
    }
    let oauthRequest = try signsMultipartTextFields ? Self.withMultipartTextFields(request) : OAuthRequest(request)
    let signer = try self.signer.get()
    var signed = request
    switch placement {
    case .header where onSign == nil && configuration.externalSigner == nil:
      signed.headers["Authorization"] = try signer.authorizationHeader(for: oauthRequest)
    case .header:
      let signedRequest = try await signer.sign(oauthRequest)
      onSign?(signedRequest.signatureBaseString)
      signed.headers["Authorization"] = signedRequest.authorizationHeader
    case .query:
      // A redirect's Location may repeat the signed query: sign without the old parameters.
      let oauthRequest = Self.withoutProtocolParameters(oauthRequest)
      let signedRequest = try await signer.sign(oauthRequest)
      onSign?(signedRequest.signatureBaseString)
      let url = OAuthFormEncoding.appending(signedRequest.signedProtocolParameters, toQueryOf: oauthRequest.url)
      guard let signedURL = URL(string: url) else {
        throw NetworkError.invalidRequest(reason: "the signed URL \(MessageURL.text(url)) is not a valid URL")
      }
      signed.url = signedURL
    }
    return signed
  }
}

extension OAuthRequestBehavior {
  /// What the signer sees of a multipart request whose text fields are signed: those fields as
  /// a form body; any other request as it is.
  static func withMultipartTextFields(_ request: HTTPRequest) throws -> OAuthRequest {
    let contentType = request.headers["Content-Type"]
    guard contentType?.lowercased().hasPrefix("multipart/form-data") == true else { return OAuthRequest(request) }
    guard request.bodyFile == nil, let body = request.body else {
      throw NetworkError.invalidRequest(
        reason: "this provider signs a multipart body's text fields: send the body in memory, not streamed from a file")
    }
    guard let parts = MultipartFormData.parts(of: body, contentType: contentType) else {
      throw NetworkError.invalidRequest(reason: "the multipart body cannot be read back to sign its text fields")
    }
    let fields = parts.filter { $0.filename == nil }.map { (name: $0.name, value: String(decoding: $0.content, as: UTF8.self)) }
    return OAuthRequest(
      method: request.method.rawValue, url: request.url.absoluteString, body: Data(PercentEncoding.form(fields).utf8),
      contentType: "application/x-www-form-urlencoded", host: nil)
  }

  /// `request` without `oauth_*` pairs in its query.
  static func withoutProtocolParameters(_ request: OAuthRequest) -> OAuthRequest {
    guard let questionMark = request.url.firstIndex(of: "?"), request.url[questionMark...].contains("oauth_") else { return request }
    var query = request.url[request.url.index(after: questionMark)...]
    var fragment: Substring = ""
    if let hash = query.firstIndex(of: "#") {
      fragment = query[hash...]
      query = query[..<hash]
    }
    let kept = query.split(separator: "&", omittingEmptySubsequences: false).filter { pair in
      let name = pair.prefix { $0 != "=" }
      return !(PercentEncoding.decode(name, plusAsSpace: true) ?? String(name)).hasPrefix("oauth_")
    }
    let url = String(request.url[..<questionMark]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&")) + fragment
    return OAuthRequest(method: request.method, url: url, body: request.body, contentType: request.contentType, host: request.host)
  }
}

extension OAuthRequest {
  /// The request a `NetworkClient` is about to send, as the signer sees it.
  public init(_ request: HTTPRequest) {
    self.init(
      method: request.method.rawValue, url: request.url.absoluteString, body: request.body,
      contentType: request.headers["Content-Type"], host: nil)
  }
}
