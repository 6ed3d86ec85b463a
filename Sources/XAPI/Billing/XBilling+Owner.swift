import Foundation
import NetworkClient

extension XBilling {
  /// The numeric user id an X OAuth 1.0a access token begins with, or `nil` for a token not of
  /// that form. X issues user access tokens as the account's id, a hyphen, then the random part
  /// (`370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb` is user 370773112's, in X's own
  /// signing example, https://docs.x.com/fundamentals/authentication/oauth-1-0a/creating-a-signature,
  /// the vector of `Vectors/twitter-x-docs.json`):
  /// so a budget knows whose reads are owned reads even when the token came from the
  /// environment and no login looked the account up.
  ///
  /// ```swift
  /// XBilling.userID(ofAccessToken: "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb")  // "370773112"
  /// XBilling.userID(ofAccessToken: "sandbox-token")                                        // nil
  /// ```
  public static func userID(ofAccessToken token: String) -> String? {
    guard let dash = token.firstIndex(of: "-") else { return nil }
    let prefix = token[..<dash]
    // A user id is 1 to 19 decimal digits (a 64-bit integer), with no leading zero.
    guard (1...19).contains(prefix.count), prefix.allSatisfy({ $0.isASCII && $0.isNumber }), prefix.first != "0",
      token.index(after: dash) < token.endIndex
    else { return nil }
    return String(prefix)
  }

  /// The user whose own data `request` reads, for the endpoints X bills as owned reads when that
  /// user is the authenticated one and owns the app (`GET /2/users/{id}/tweets`, `mentions`,
  /// `followers`, …: `{id}`), or `nil` for any other request. A budget that does not know
  /// whose token it runs with uses it to say that such reads are recorded at the full price.
  /// The request's row (``XEndpoint/match(_:path:)``) says whether it is such a read.
  public static func ownableUserID(of request: HTTPRequest) -> String? {
    guard let (endpoint, captures) = XEndpoint.match(request.method, path: request.url.path),
      case .resources(_, ownable: true, _) = endpoint.charge
    else { return nil }
    return captures.first
  }
}
