import Foundation
import OAuth1

/// Verifies LTI 1.1 launches and returns them typed: the tool's front door.
///
/// It is the package's `OAuthVerifier` with the settings a tool needs: HMAC-SHA1 and
/// HMAC-SHA256 only, the secret looked up by consumer key, a nonce store (each launch once), the
/// timestamp window, and the URL as the platform saw it when a proxy stands in front
/// (`OAuthVerifier/Options/publicURL`). Then the parameters become an ``LTILaunch``, and each
/// refusal an ``LTIError`` a tool can show.
///
/// ```swift
/// var options = LTILaunchVerifier.defaultOptions
/// options.publicURL = .origin("https://tool.example.edu")
/// let verifier = LTILaunchVerifier(secrets: ["lms-key": "lms-secret"], options: options)
/// let launch = try await verifier.verify(method: "POST", url: receivedURL, body: formBody)
/// print(launch.user.id ?? "-", launch.roles.isInstructor)
/// ```
public struct LTILaunchVerifier: Sendable {
  /// The verifier every launch goes through.
  public let verifier: OAuthVerifier

  /// The options of a tool's verifier: HMAC-SHA1 and HMAC-SHA256, ±5 minutes, the URL as received.
  public static var defaultOptions: OAuthVerifier.Options {
    OAuthVerifier.Options(allowedSignatureMethods: [.hmacSHA1, .hmacSHA256])
  }

  /// A verifier over `credentials` (a database lookup, say) and `nonceStore` (share one, such
  /// as `OAuth1Redis`'s, between processes; `nil` for one in memory).
  public init(credentials: any OAuthCredentialLookup, nonceStore: (any OAuthNonceStore)? = nil, options: OAuthVerifier.Options = defaultOptions) {
    verifier = OAuthVerifier(credentials: credentials, nonceStore: nonceStore, options: options)
  }

  /// A verifier for the platforms whose consumer keys and secrets are in `secrets`.
  public init(secrets: [String: String], nonceStore: (any OAuthNonceStore)? = nil, options: OAuthVerifier.Options = defaultOptions) {
    let consumers = secrets.mapValues { OAuthConsumer(secret: $0) }
    self.init(credentials: InMemoryCredentialLookup(consumers: consumers), nonceStore: nonceStore, options: options)
  }

  /// Verifies a launch and reads it.
  ///
  /// - Parameters:
  ///   - method: the request's method (`POST`).
  ///   - url: the URL as received, with its raw query (the public one is derived from `headers`
  ///     when the options say so).
  ///   - body: the form body as received.
  ///   - headers: the request's headers, for a proxy's `Forwarded`/`X-Forwarded-*`; none by default.
  ///   - peerAddress: the connection's remote address, to trust a proxy's headers; `nil` by default.
  ///   - accepting: the message types taken; both by default.
  /// - Throws: ``LTIError``: a bad signature, a replayed nonce, a stale timestamp, an unknown
  ///   consumer, a missing parameter, a wrong message type.
  public func verify(
    method: String, url: String, body: Data, headers: [(name: String, value: String)] = [], peerAddress: String? = nil,
    accepting: Set<LTIMessageType> = [.basicLaunch, .contentItemSelectionRequest]
  ) async throws(LTIError) -> LTILaunch {
    let request = OAuthRequest(method: method, url: url, body: body, contentType: "application/x-www-form-urlencoded")
    let authorization = headers.last { $0.name.lowercased() == "authorization" }?.value
    let verified: VerifiedRequest
    do {
      verified = try await verifier.verify(request, authorization: authorization, headers: headers, peerAddress: peerAddress)
    } catch {
      throw LTIError(error)
    }
    return try LTILaunch(
      parameters: verified.parameters, consumerKey: verified.consumerKey, signatureMethod: verified.signatureMethod.rawValue, accepting: accepting)
  }
}
