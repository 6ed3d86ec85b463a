import NetworkClient

/// The credentials stored under one name: the app's consumer key and secret, and the user's
/// access token and secret with the account they belong to; and, once the user logged in with
/// OAuth 2.0 or migrated, the OAuth 2.0 client and tokens.
package struct Profile: Codable, Sendable, Equatable, CustomStringConvertible {
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
  /// OAuth 2.0 user context: the client and the current tokens. When present, v2 requests use
  /// it instead of the OAuth 1.0a token (kept: v1.1 and recovery need it).
  package var oauth2: OAuth2Credentials?
  /// What all runs of the profile may spend on X's billing in a billing cycle (`tweets
  /// budget`), as a decimal amount of US dollars: checked against the profile's ledger.
  package var maxCost: String?
  /// The day of the month X's billing cycle resets, as `tweets usage` last learnt it from X;
  /// `nil` for the calendar month.
  package var capResetDay: Int?

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
    case oauth2
    case maxCost = "max_cost"
    case capResetDay = "cap_reset_day"
  }

  /// Never shows a secret.
  package var description: String {
    "Profile(consumer key: \(consumerKey ?? "none"), access token: \(accessToken ?? "none"), user: \(username.map { "@" + $0 } ?? "?"), OAuth 2.0: \(oauth2 == nil ? "no" : "yes"))"
  }
}

/// A profile's OAuth 2.0 side: the client it logged in with (its secret when it is a
/// confidential client, so that renewals can authenticate) and the current tokens. Secrets
/// all: stored in the 0600 file, never printed.
package struct OAuth2Credentials: Codable, Sendable, Equatable {
  /// The OAuth 2.0 client id of the app.
  package var clientID: String
  /// Its secret, for a confidential client.
  package var clientSecret: String?
  /// The access and refresh tokens, replaced at each renewal.
  package var token: BearerToken

  /// A client and its tokens.
  package init(clientID: String, clientSecret: String?, token: BearerToken) {
    self.clientID = clientID
    self.clientSecret = clientSecret
    self.token = token
  }

  enum CodingKeys: String, CodingKey {
    case clientID = "client_id"
    case clientSecret = "client_secret"
    case token
  }
}
