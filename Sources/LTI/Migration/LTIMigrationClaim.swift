import CryptoPrimitives
import Foundation
import OAuth1

/// The LTI 1.3 launch's LTI 1.1 migration claim (`https://purl.imsglobal.org/spec/lti/claim/lti1p1`),
/// by which a tool that moves to 1.3 keeps its 1.1 users: the platform proves it knows the 1.1
/// secret by signing the 1.3 launch's identifiers with it, and the tool maps the 1.1
/// `user_id` it stored to the new one.
///
/// `oauth_consumer_key_sign` = base64(HMAC-SHA256(key: the 1.1 secret, message:
/// `oauth_consumer_key&deployment_id&iss&client_id&exp&nonce`)), as the LTI 1.3 migration guide
/// gives it.
///
/// ```swift
/// let claim = LTIMigrationClaim(consumerKey: "179248902", signature: "lWd54kFo5qU7xshAna6v8BwoBm6tmUjc6GTax6+12ps=", userID: "34212")
/// let trusted = claim.isValid(
///   secret: "my-lti11-secret", deploymentID: "689302", issuer: "https://lmsvendor.com",
///   clientID: "PM48OJSfGDTAzAo", expiration: 1_551_290_856, nonce: "172we8671fd8z")  // true
/// ```
public struct LTIMigrationClaim: Sendable, Hashable, Codable {
  /// `oauth_consumer_key`: the 1.1 key, which tells the tool which 1.1 secret to check with.
  public var consumerKey: String
  /// `oauth_consumer_key_sign`: the platform's signature.
  public var signature: String
  /// `user_id`: the user's 1.1 id, when it differs from the 1.3 `sub`.
  public var userID: String?

  /// A claim as read from the 1.3 launch's JWT (after the JWT itself was verified).
  public init(consumerKey: String, signature: String, userID: String? = nil) {
    self.consumerKey = consumerKey
    self.signature = signature
    self.userID = userID
  }

  /// The signature a platform computes for these values.
  ///
  /// - Parameters:
  ///   - consumerKey: the 1.1 consumer key.
  ///   - secret: the 1.1 shared secret.
  ///   - deploymentID: the 1.3 launch's `https://purl.imsglobal.org/spec/lti/claim/deployment_id`.
  ///   - issuer: its `iss`.
  ///   - clientID: its `aud` (the tool's client id).
  ///   - expiration: its `exp`.
  ///   - nonce: its `nonce`.
  public static func signature(
    consumerKey: String, secret: String, deploymentID: String, issuer: String, clientID: String, expiration: Int64, nonce: String
  ) throws(LTIError) -> String {
    let message = [consumerKey, deploymentID, issuer, clientID, String(expiration), nonce].joined(separator: "&")
    do {
      return try OAuthSignature.sign(baseString: message, method: .hmacSHA256, signingKey: secret)
    } catch {
      throw .invalidRequest("the migration claim cannot be signed: \(error)")
    }
  }

  /// Whether ``signature`` is the one `secret` gives for these values of the 1.3 launch;
  /// compared in constant time.
  public func isValid(secret: String, deploymentID: String, issuer: String, clientID: String, expiration: Int64, nonce: String) -> Bool {
    guard
      let expected = try? Self.signature(
        consumerKey: consumerKey, secret: secret, deploymentID: deploymentID, issuer: issuer, clientID: clientID, expiration: expiration,
        nonce: nonce)
    else { return false }
    return ConstantTime.equals(Array(expected.utf8), signature)
  }
}
