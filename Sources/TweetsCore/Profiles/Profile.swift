/// The credentials stored under one name: the app's consumer key and secret, and the user's
/// access token and secret with the account they belong to.
public struct Profile: Codable, Sendable, Hashable, CustomStringConvertible {
  public var consumerKey: String?
  public var consumerSecret: String?
  public var accessToken: String?
  public var accessTokenSecret: String?
  public var userID: String?
  public var username: String?

  public init(
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
  public var description: String {
    "Profile(consumer key: \(consumerKey ?? "none"), access token: \(accessToken ?? "none"), user: \(username.map { "@" + $0 } ?? "?"))"
  }
}
