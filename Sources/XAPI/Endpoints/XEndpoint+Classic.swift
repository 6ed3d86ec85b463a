extension XEndpoint {
  /// The operations the package calls or bills that X's v2 specification lacks: v1.1 (which X
  /// documents apart, and which many access tiers no longer include) and OAuth 1.0a's token
  /// endpoints. Written by hand; the tests check that none of them is in the specification.
  public static let classic: [XEndpoint] = [
    v1UserTimeline, v1HomeTimeline, v1MentionsTimeline, v1FavoritesList, v1SearchTweets, v1StatusesLookup, v1StatusesShow, v1UsersLookup,
    v1UsersShow, v1VerifyCredentials, v1RateLimitStatus, v1StatusesUpdate, v1StatusesDestroy, v1MediaUpload, v1MediaMetadata,
    oauthRequestToken, oauthAccessToken, oauth2Token,
  ]

  private static let v1Read: [Authentication] = [.oauth1User, .appOnly]
  private static let v1Write: [Authentication] = [.oauth1User]

  /// `GET /1.1/statuses/user_timeline.json`: a user's posts, paged with `count` (at most 200).
  public static let v1UserTimeline = XEndpoint(
    .get, "/1.1/statuses/user_timeline.json", operation: "v1UserTimeline", authentications: v1Read, pageSizes: 1...200,
    charge: .resources(.post, count: .page(200)), inSpecification: false)
  /// `GET /1.1/statuses/home_timeline.json`: the authenticated user's home timeline.
  public static let v1HomeTimeline = XEndpoint(
    .get, "/1.1/statuses/home_timeline.json", operation: "v1HomeTimeline", authentications: v1Write, pageSizes: 1...200,
    charge: .resources(.post, count: .page(200)), inSpecification: false)
  /// `GET /1.1/statuses/mentions_timeline.json`: the authenticated user's mentions.
  public static let v1MentionsTimeline = XEndpoint(
    .get, "/1.1/statuses/mentions_timeline.json", operation: "v1MentionsTimeline", authentications: v1Write, pageSizes: 1...200,
    charge: .resources(.post, count: .page(200)), inSpecification: false)
  /// `GET /1.1/favorites/list.json`: the posts a user liked.
  public static let v1FavoritesList = XEndpoint(
    .get, "/1.1/favorites/list.json", operation: "v1FavoritesList", authentications: v1Read, pageSizes: 1...200,
    charge: .resources(.post, count: .page(200)), inSpecification: false)
  /// `GET /1.1/search/tweets.json`: standard search (the last seven days).
  public static let v1SearchTweets = XEndpoint(
    .get, "/1.1/search/tweets.json", operation: "v1SearchTweets", authentications: v1Read, pageSizes: 1...100,
    charge: .resources(.post, count: .page(100)), inSpecification: false)
  /// `GET /1.1/statuses/lookup.json`: up to 100 posts by id.
  public static let v1StatusesLookup = XEndpoint(
    .get, "/1.1/statuses/lookup.json", operation: "v1StatusesLookup", authentications: v1Read,
    charge: .resources(.post, count: .listed(["id"], otherwise: 100)), inSpecification: false)
  /// `GET /1.1/statuses/show.json`: one post by id.
  public static let v1StatusesShow = XEndpoint(
    .get, "/1.1/statuses/show.json", operation: "v1StatusesShow", authentications: v1Read, charge: .resources(.post, count: .one),
    inSpecification: false)
  /// `GET /1.1/users/lookup.json`: up to 100 users by id or screen name.
  public static let v1UsersLookup = XEndpoint(
    .get, "/1.1/users/lookup.json", operation: "v1UsersLookup", authentications: v1Read,
    charge: .resources(.user, count: .listed(["user_id", "screen_name"], otherwise: 100)), inSpecification: false)
  /// `GET /1.1/users/show.json`: one user.
  public static let v1UsersShow = XEndpoint(
    .get, "/1.1/users/show.json", operation: "v1UsersShow", authentications: v1Read, charge: .resources(.user, count: .one),
    inSpecification: false)
  /// `GET /1.1/account/verify_credentials.json`: the authenticated user.
  public static let v1VerifyCredentials = XEndpoint(
    .get, "/1.1/account/verify_credentials.json", operation: "v1VerifyCredentials", authentications: v1Write,
    charge: .resources(.user, count: .one), inSpecification: false)
  /// `GET /1.1/application/rate_limit_status.json`: the app's rate limits.
  public static let v1RateLimitStatus = XEndpoint(
    .get, "/1.1/application/rate_limit_status.json", operation: "v1RateLimitStatus", authentications: v1Read,
    charge: .free(because: "rate-limit status is not billed"), inSpecification: false)
  /// `POST /1.1/statuses/update.json`: creates a post (form body, signed).
  public static let v1StatusesUpdate = XEndpoint(
    .post, "/1.1/statuses/update.json", operation: "v1StatusesUpdate", authentications: v1Write, charge: .postCreate, inSpecification: false)
  /// `POST /1.1/statuses/destroy/{id}.json`: deletes one of the user's posts.
  public static let v1StatusesDestroy = XEndpoint(
    .post, "/1.1/statuses/destroy/{id}.json", operation: "v1StatusesDestroy", authentications: v1Write,
    charge: .request(.interactionDelete), inSpecification: false)
  /// `POST /1.1/media/upload.json` (on `upload.twitter.com`): the v1.1 media upload.
  public static let v1MediaUpload = XEndpoint(
    .post, "/1.1/media/upload.json", operation: "v1MediaUpload", authentications: v1Write,
    charge: .free(because: "the upload itself: X bills media metadata, not the upload"), inSpecification: false)
  /// `POST /1.1/media/metadata/create.json`: a media item's alt text.
  public static let v1MediaMetadata = XEndpoint(
    .post, "/1.1/media/metadata/create.json", operation: "v1MediaMetadata", authentications: v1Write, charge: .request(.mediaMetadata),
    inSpecification: false)
  /// `POST /oauth/request_token`: OAuth 1.0a's temporary credentials.
  public static let oauthRequestToken = XEndpoint(
    .post, "/oauth/request_token", operation: "oauthRequestToken", authentications: [],
    charge: .free(because: "authorization is not billed"), inSpecification: false)
  /// `POST /oauth/access_token`: OAuth 1.0a's token credentials.
  public static let oauthAccessToken = XEndpoint(
    .post, "/oauth/access_token", operation: "oauthAccessToken", authentications: [],
    charge: .free(because: "authorization is not billed"), inSpecification: false)
  /// `POST /2/oauth2/token`: OAuth 2.0's token endpoint (PKCE code exchange, refresh).
  public static let oauth2Token = XEndpoint(
    .post, "/2/oauth2/token", operation: "oauth2Token", authentications: [],
    charge: .free(because: "authorization is not billed"), inSpecification: false)
}
