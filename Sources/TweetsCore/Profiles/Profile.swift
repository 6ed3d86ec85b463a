/// The credentials stored under one name: the app's consumer key and secret, and the user's
/// access token and secret with the account they belong to.
package struct Profile: Codable, Sendable, Hashable, CustomStringConvertible {
  /// The app's consumer key (API key), if stored; flags and the environment can give it instead.
  package var consumerKey: String?
  /// The app's consumer secret: a secret, stored in a 0600 file and never printed.
  package var consumerSecret: String?
  /// The user's access token, from `tweets login`.
  package var accessToken: String?
  /// The access token's secret: a secret, stored in a 0600 file and never printed.
  package var accessTokenSecret: String?
  /// The numeric id of the account the access token belongs to, as X returned it.
  package var userID: String?
  /// The account's @name (without the @), for `whoami` and messages.
  package var username: String?

  /// A profile with whatever is known; every field may be filled in later.
  package init(
    consumerKey: String? = nil, consumerSecret: String? = nil, accessToken: String? = nil, accessTokenSecret: String? = nil, userID: String? = nil,
    username: String? = nil
  ) {
    self.consumerKey = consumerKey
    self.consumerSecret = consumerSecret
    self.accessToken = accessToken
    self.accessTokenSecret = accessTokenSecret
    self.userID = userID
    self.username = username
  }

  enum CodingKeys: String, CodingKey {
    case consumerKey = "consumer_key"
    case consumerSecret = "consumer_secret"
    case accessToken = "access_token"
    case accessTokenSecret = "access_token_secret"
    case userID = "user_id"
    case username
  }

  /// Never shows a secret.
  package var description: String {
    "Profile(consumer key: \(consumerKey ?? "none"), access token: \(accessToken ?? "none"), user: \(username.map { "@" + $0 } ?? "?"))"
  }
}
