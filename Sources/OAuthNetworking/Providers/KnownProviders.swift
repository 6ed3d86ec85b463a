import Foundation
import NetworkClient
import OAuth1

// Each profile's doc comment cites where its rules are documented: the provider's own pages
// first, then the issue threads where users met the quirk. Checked in 2026-11; "(issues only)"
// marks a rule found in users' reports and not in the provider's documentation.

extension OAuthProvider {
  /// The names ``named(_:site:)`` knows, as `oauth1 login --provider` takes them.
  public static let names = [
    "bitbucket", "confluence", "discogs", "etrade", "flickr", "garmin", "jira", "lti", "magento", "mastercard", "mediawiki", "netsuite", "schoology",
    "smugmug",
    "trello", "tumblr", "woocommerce", "x", "x-ads",
  ]

  /// The profile named `name` (see ``names``). The providers that live on your own server
  /// (Jira, Confluence, Magento, WooCommerce, an LTI tool) need its URL as `site`; NetSuite
  /// needs the account id (or a NetSuite URL); Mastercard takes its production URL there
  /// instead of the sandbox.
  ///
  /// ```swift
  /// let jira = try OAuthProvider.named("jira", site: "https://jira.example.com")
  /// ```
  public static func named(_ name: String, site: String? = nil) throws(LookupError) -> OAuthProvider {
    let url = site.flatMap { (try? OAuthURLComponents($0, requireHTTP: true)) != nil ? URL(string: $0) : nil }
    if site != nil && url == nil && name.lowercased() != "netsuite" {
      throw LookupError("\(Self.shown(site!)) is not an absolute URL (https://host/...)")
    }
    func needsSite(_ what: String) throws(LookupError) -> URL {
      guard let url else { throw LookupError("the \(name) profile needs \(what)") }
      return url
    }
    switch name.lowercased() {
    case "x", "twitter": return .x
    case "x-ads": return .xAds
    case "etrade": return url.map { .eTrade(apiURL: $0) } ?? .eTrade()
    case "mediawiki", "wikipedia": return url.map { .mediaWiki(scriptURL: $0) } ?? .mediaWiki()
    case "bitbucket": return .bitbucket(baseURL: try needsSite("the Bitbucket Data Center server's URL as its site"))
    case "discogs": return .discogs
    case "flickr": return .flickr
    case "tumblr": return .tumblr
    case "garmin": return .garmin
    case "schoology": return url.map { .schoology(districtURL: $0) } ?? .schoology()
    case "trello": return .trello(applicationName: "oauth1")
    case "smugmug": return .smugMug()
    case "mastercard": return url.map { .mastercard(baseURL: $0) } ?? .mastercard()
    case "netsuite":
      guard let site, let account = url.map({ netSuiteAccount(from: $0) }) ?? site,
        !account.isEmpty, account.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") })
      else {
        throw LookupError("the netsuite profile needs the account id (123456 or 123456_SB1) as its site, or a NetSuite URL")
      }
      return .netSuite(accountID: account)
    case "magento": return .magento(storeURL: try needsSite("the store's URL as its site"))
    case "woocommerce": return .wooCommerce(siteURL: try needsSite("the WordPress site's URL as its site"))
    case "jira": return .jira(baseURL: try needsSite("the Jira server's URL as its site"))
    case "confluence": return .confluence(baseURL: try needsSite("the Confluence server's URL as its site"))
    case "lti": return .lti11(launchURL: try needsSite("the tool's launch URL as its site"))
    default: throw LookupError("no provider is named \(Self.shown(name)); the known ones are \(names.joined(separator: ", "))")
    }
  }

  /// Why ``named(_:site:)`` found no profile.
  public struct LookupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong and what to give instead.
    public let description: String
    init(_ description: String) { self.description = description }
  }

  private static func shown(_ text: String) -> String { "\"" + text + "\"" }

  /// X (Twitter): HMAC-SHA1 in the header; `authenticate` is "Sign in with X", which skips the
  /// approval for a user who already approved the app.
  ///
  /// Sources: https://docs.x.com/fundamentals/authentication/api-reference (`POST oauth/request_token`,
  /// `GET oauth/authorize`, `GET oauth/authenticate`, `POST oauth/access_token`) and
  /// https://docs.x.com/fundamentals/authentication/oauth-1-0a/authorizing-a-request (HMAC-SHA1).
  /// (Issues only:) JSON bodies and multipart uploads sign only the `oauth_*` parameters
  /// (daneden/Twift#1); error 135 is a clock off by minutes (abraham/twitteroauth#223).
  public static let x = OAuthProvider(
    name: "x", baseURL: URL(string: "https://api.x.com")!, endpoints: OAuthFlow.Endpoints(),
    signatureMethod: .hmacSHA1,
    notes: [
      "Error 135 means the computer's clock is more than a few minutes off.",
      "Bookmarks and some v2 endpoints need OAuth 2.0 user tokens, not OAuth 1.0a.",
    ])

  /// Discogs: PLAINTEXT (over https) or HMAC-SHA1; every request needs a `User-Agent` that
  /// names the application, or Discogs answers 403.
  ///
  /// Sources: https://www.discogs.com/developers ("Authentication": the flow, PLAINTEXT in its
  /// examples; "General Information": a User-Agent is required). (Issues only:) the nonce at most
  /// 64 characters and the timestamp in seconds, lionralfs/discogs-client#198 and #199.
  public static let discogs = OAuthProvider(
    name: "discogs", baseURL: URL(string: "https://api.discogs.com")!,
    endpoints: .init(
      requestToken: "https://api.discogs.com/oauth/request_token", authorize: "https://www.discogs.com/oauth/authorize",
      authenticate: "https://www.discogs.com/oauth/authorize", accessToken: "https://api.discogs.com/oauth/access_token"),
    signatureMethod: .hmacSHA1, acceptedSignatureMethods: [.hmacSHA1, .plaintext],
    headers: ["User-Agent": "oauth1-swift/0.1 (replace with your application's name and URL)"],
    notes: ["Discogs requires a User-Agent naming your application: set your own.", "Nonces longer than 64 characters are refused."])

  /// Flickr: HMAC-SHA1 only. A refused signature's body carries `debug_sbs`, Flickr's own
  /// base string, which `OAuthProblemReport` reads and `OAuthBaseStringDiff` compares.
  ///
  /// Sources: https://www.flickr.com/services/api/auth.oauth.html (the three URLs, HMAC-SHA1,
  /// `perms`) and https://www.flickr.com/services/api/upload.api.html (an upload's text fields
  /// are signed, its `photo` field is not: ``OAuthProvider/signsMultipartTextFields``).
  /// (Issues only:) `debug_sbs` in refusals, dopiaza/DPZFlickr#11, boncey/Flickr4Java#66.
  public static let flickr: OAuthProvider = {
    var flickr = OAuthProvider(
      name: "flickr", baseURL: URL(string: "https://www.flickr.com")!,
      endpoints: .init(
        requestToken: "services/oauth/request_token", authorize: "services/oauth/authorize", authenticate: "services/oauth/authorize",
        accessToken: "services/oauth/access_token"),
      authorizeParameters: [.init("perms", "read", help: "read, write or delete")],
      signatureMethod: .hmacSHA1,
      notes: ["API calls go to https://www.flickr.com/services/rest and uploads to https://up.flickr.com/services/upload/."])
    flickr.signsMultipartTextFields = true
    return flickr
  }()

  /// Tumblr: HMAC-SHA1 (Tumblr also offers OAuth 2.0).
  ///
  /// Sources: https://github.com/tumblr/docs/blob/master/api.md, "OAuth1 Authorization" (the
  /// three URLs on www.tumblr.com, HMAC-SHA1, a User-Agent required); tumblr/docs#72 and #42.
  public static let tumblr = OAuthProvider(
    name: "tumblr", baseURL: URL(string: "https://api.tumblr.com")!,
    endpoints: .init(
      requestToken: "https://www.tumblr.com/oauth/request_token", authorize: "https://www.tumblr.com/oauth/authorize",
      authenticate: "https://www.tumblr.com/oauth/authorize", accessToken: "https://www.tumblr.com/oauth/access_token"),
    signatureMethod: .hmacSHA1, headers: ["User-Agent": "oauth1-swift/0.1 (replace with your application's name)"])

  /// The X Ads API (`ads-api.x.com/<version>/...`): OAuth 1.0a user context with HMAC-SHA1,
  /// the same flow as ``x``; its list parameters are comma-separated (`entity_ids=a,b,c`), and
  /// the comma must be signed as `%2C` (Postman's signer did not, postmanlabs/postman-app-support#8879).
  ///
  /// Sources: https://developer.x.com/en/docs/x-ads-api/getting-started (OAuth 1.0a, the
  /// `ads-api.x.com` host and versioned paths) and https://docs.x.com/fundamentals/authentication/api-reference.
  public static let xAds = OAuthProvider(
    name: "x-ads", baseURL: URL(string: "https://ads-api.x.com")!,
    endpoints: .init(
      requestToken: "https://api.x.com/oauth/request_token", authorize: "https://api.x.com/oauth/authorize",
      authenticate: "https://api.x.com/oauth/authenticate", accessToken: "https://api.x.com/oauth/access_token"),
    signatureMethod: .hmacSHA1,
    notes: ["Paths carry the API version (ads-api.x.com/12/accounts); list parameters are comma-separated and signed as %2C."])

  /// MediaWiki's OAuth extension (Wikipedia, Wikidata, Toolforge: the consumers registered on
  /// Meta-Wiki): title-style endpoints under `index.php` whose `title` query is signed like any
  /// parameter, `oob` as the callback unless the consumer registered one, and an authorize URL
  /// that carries `oauth_consumer_key` beside `oauth_token`
  /// (``OAuthProvider/authorizeConsumerKeyParameter``). After the flow, `Special:OAuth/identify`
  /// answers a JWT signed HS256 with the consumer secret: check it with ``MediaWikiIdentity``.
  ///
  /// Sources: https://www.mediawiki.org/wiki/Extension:OAuth (`Special:OAuth/initiate`,
  /// `/authorize` with `oauth_consumer_key` and `oauth_token`, `/token`, `/identify` and its JWT's
  /// `iss`, `aud`, `nonce`, `iat` and `exp`). (Issues only:) owner-only consumers skip the flow,
  /// mwclient/mwclient#395.
  public static func mediaWiki(scriptURL: URL = URL(string: "https://meta.wikimedia.org/w/index.php")!) -> OAuthProvider {
    let script = scriptURL.absoluteString
    let wiki = script.hasSuffix("/w/index.php") ? String(script.dropLast("/w/index.php".count)) + "/wiki/" : script + "?title="
    var mediaWiki = OAuthProvider(
      name: "mediawiki", baseURL: scriptURL.deletingLastPathComponent(),
      endpoints: .init(
        requestToken: script + "?title=Special:OAuth/initiate", authorize: wiki + "Special:OAuth/authorize",
        authenticate: wiki + "Special:OAuth/authenticate", accessToken: script + "?title=Special:OAuth/token"),
      signatureMethod: .hmacSHA1, acceptedSignatureMethods: [.hmacSHA1, .rsaSHA1],
      notes: [
        "The callback is oob unless the consumer registered one; check Special:OAuth/identify's JWT with MediaWikiIdentity (issuer, audience, nonce, time)."
      ])
    mediaWiki.authorizeConsumerKeyParameter = "oauth_consumer_key"
    return mediaWiki
  }

  /// E\*TRADE: HMAC-SHA1, the callback `oob` only (the user types the verification code), and an
  /// authorize page of its own form, `https://us.etrade.com/e/t/etws/authorize?key=KEY&token=TOKEN`
  /// (``OAuthProvider/authorizeConsumerKeyParameter`` `key`, ``OAuthProvider/authorizeTokenParameter``
  /// `token`). Access tokens stop at midnight US Eastern and after two hours idle
  /// (``ETradeTokenLifetime``); a GET of `oauth/renew_access_token` signed with the token revives an
  /// idle one, `oauth/revoke_access_token` ends it. `apiURL`: `https://apisb.etrade.com` for the sandbox.
  ///
  /// Sources: https://apisb.etrade.com/docs/api/authorization/request_token.html, `authorize.html`,
  /// `get_access_token.html`, `renew_access_token.html`, `revoke_access_token.html` (oob only, the
  /// authorize form, midnight US Eastern, two hours idle). (Issues only:) jessecooper/pyetrade#80, #100.
  public static func eTrade(apiURL: URL = URL(string: "https://api.etrade.com")!) -> OAuthProvider {
    var eTrade = OAuthProvider(
      name: "etrade", baseURL: apiURL,
      endpoints: .init(
        requestToken: "oauth/request_token", authorize: "https://us.etrade.com/e/t/etws/authorize",
        authenticate: "https://us.etrade.com/e/t/etws/authorize", accessToken: "oauth/access_token"),
      signatureMethod: .hmacSHA1,
      notes: [
        "The callback is oob only: type the verification code E*TRADE shows.",
        "Access tokens stop at midnight US Eastern, and after two hours idle (GET oauth/renew_access_token revives them until midnight).",
      ])
    eTrade.authorizeConsumerKeyParameter = "key"
    eTrade.authorizeTokenParameter = "token"
    return eTrade
  }

  /// Garmin Connect developer program (Health and Activity APIs): HMAC-SHA1. Garmin retires
  /// OAuth 1.0a at the end of 2026 in favour of OAuth 2.0 with PKCE: after 2026-12-31 this
  /// profile will stop working.
  ///
  /// Sources: https://developerportal.garmin.com/developer-programs/content/829/programs-docs
  /// (behind the partner login; the request-token URL). (Issues only:) the confirm and access
  /// token URLs and the retirement on 2026-12-31, quoted from Garmin's notice in
  /// marazt/garmin-connect-client#11, and drkostas/hevy2garmin#246.
  public static let garmin = OAuthProvider(
    name: "garmin", baseURL: URL(string: "https://apis.garmin.com")!,
    endpoints: .init(
      requestToken: "https://connectapi.garmin.com/oauth-service/oauth/request_token", authorize: "https://connect.garmin.com/oauthConfirm",
      authenticate: "https://connect.garmin.com/oauthConfirm", accessToken: "https://connectapi.garmin.com/oauth-service/oauth/access_token"),
    signatureMethod: .hmacSHA1,
    notes: [
      "Garmin retires OAuth 1.0a on 2026-12-31: move to its OAuth 2.0 (PKCE) flow (the OAuth2 product's PKCE login, then Garmin's user-id request)."
    ])

  /// Schoology: `realm="Schoology API"`, HMAC-SHA1 or PLAINTEXT, and two-legged requests
  /// (the consumer alone, the usual way to call its API) that still send `oauth_token=""`
  /// (``OAuthProvider/sendsEmptyToken``); the API at `api.schoology.com/v1`, the user's
  /// approval on the district's own host (`site`: `https://district.schoology.com`). Its
  /// timestamps must increase from one request to the next.
  ///
  /// Sources: https://developers.schoology.com/api-documentation/authentication (two-legged and
  /// three-legged, the realm, HMAC-SHA1 or PLAINTEXT, the empty `oauth_token`, the district's
  /// authorize host).
  public static func schoology(districtURL: URL = URL(string: "https://app.schoology.com")!) -> OAuthProvider {
    var schoology = OAuthProvider(
      name: "schoology", baseURL: URL(string: "https://api.schoology.com/v1/")!,
      endpoints: .init(
        requestToken: "oauth/request_token", authorize: districtURL.appendingPathComponent("oauth/authorize").absoluteString,
        authenticate: districtURL.appendingPathComponent("oauth/authorize").absoluteString, accessToken: "oauth/access_token"),
      signatureMethod: .hmacSHA1, acceptedSignatureMethods: [.hmacSHA1, .plaintext], realm: "Schoology API",
      notes: [
        "Two-legged requests send oauth_token=\"\" (the consumer alone); give the district's host as --site for the approval page.",
        "Timestamps must increase from one request to the next: keep the clock right.",
      ])
    schoology.sendsEmptyToken = true
    return schoology
  }

  /// Trello: HMAC-SHA1 (PLAINTEXT answers "invalid signature"); the authorize page needs
  /// `name` (shown to the user), `scope` (`read`, `read,write`, `read,write,account`) and
  /// `expiration` (`1hour`, `1day`, `30days`, `never`).
  ///
  /// Sources: https://developer.atlassian.com/cloud/trello/guides/rest-api/authorization/ (the
  /// three `/1/OAuth...` URLs, HMAC-SHA1, `name`). (Issues only:) `scope` and `expiration` on
  /// `OAuthAuthorizeToken`, PLAINTEXT refused: adunkman/node-trello#20, scribejava/scribejava#1064.
  public static func trello(applicationName: String, scope: String = "read", expiration: String = "30days") -> OAuthProvider {
    OAuthProvider(
      name: "trello", baseURL: URL(string: "https://api.trello.com")!,
      endpoints: .init(
        requestToken: "https://trello.com/1/OAuthGetRequestToken", authorize: "https://trello.com/1/OAuthAuthorizeToken",
        authenticate: "https://trello.com/1/OAuthAuthorizeToken", accessToken: "https://trello.com/1/OAuthGetAccessToken"),
      authorizeParameters: [
        .init("name", applicationName, help: "the application's name shown to the user"),
        .init("scope", scope, help: "read, read,write or read,write,account"),
        .init("expiration", expiration, help: "1hour, 1day, 30days or never"),
      ],
      signatureMethod: .hmacSHA1)
  }

  /// SmugMug: HMAC-SHA1; the authorize page needs `Access` (`Public` or `Full`) and
  /// `Permissions` (`Read`, `Add`, `Modify`).
  ///
  /// Sources: https://api.smugmug.com/api/v2/doc/tutorial/authorization.html (the three URLs,
  /// `Access` and `Permissions`, a request token valid 5 minutes, once). (Issues only:) an
  /// http→https redirect breaks signatures, lildude/phpSmug#46: sign the https URL.
  public static func smugMug(access: String = "Full", permissions: String = "Read") -> OAuthProvider {
    OAuthProvider(
      name: "smugmug", baseURL: URL(string: "https://api.smugmug.com")!,
      endpoints: .init(
        requestToken: "services/oauth/1.0a/getRequestToken", authorize: "services/oauth/1.0a/authorize",
        authenticate: "services/oauth/1.0a/authorize", accessToken: "services/oauth/1.0a/getAccessToken"),
      authorizeParameters: [
        .init("Access", access, help: "Public or Full"), .init("Permissions", permissions, help: "Read, Add or Modify"),
      ],
      signatureMethod: .hmacSHA1, headers: ["Accept": "application/json"])
  }

  /// NetSuite token-based authentication: HMAC-SHA256 only (HMAC-SHA1 ended with 2023.1), with
  /// the account id as the header's `realm`. A sandbox account is written `123456_SB1` in the
  /// realm (upper case, underscore) and `123456-sb1` in host names: pass either form. Oracle
  /// advises taking the hosts from the account's Company URLs; the derived ones are the usual.
  ///
  /// Sources: Oracle NetSuite Help Center, https://docs.oracle.com/en/cloud/saas/netsuite/ns-online-help/section_156338994830.html
  /// (step one: `rest/requesttoken`, "Only HMAC-SHA256 is supported"), section_156536698849.html
  /// (step two: `authorizetoken.nl`), section_156537025868.html (step three: `rest/accesstoken`),
  /// section_4635758034.html (the header's realm; SHA-1's end in 2023.1), section_4609939018.html
  /// (sandbox ids end in `_SB1`), section_1534941295.html (no new TBA integrations from 2027.1).
  /// (Issues only:) the realm in upper case, netsuitephp/netsuite-php#121, NetSweet/netsuite#368.
  /// `Vectors/netsuite-tba.json` holds a published example signed through this profile in the tests.
  ///
  /// Characters other than letters, digits, `_` and `-` have no place in an account id and are
  /// dropped.
  public static func netSuite(accountID: String) -> OAuthProvider {
    let account = accountID.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
    let realm = account.uppercased().replacingOccurrences(of: "-", with: "_")
    let host = account.lowercased().replacingOccurrences(of: "_", with: "-")
    return OAuthProvider(
      name: "netsuite", baseURL: URL(string: "https://\(host).suitetalk.api.netsuite.com") ?? URL(string: "https://suitetalk.api.netsuite.com")!,
      endpoints: .init(
        requestToken: "https://\(host).restlets.api.netsuite.com/rest/requesttoken",
        authorize: "https://\(host).app.netsuite.com/app/login/secure/authorizetoken.nl",
        authenticate: "https://\(host).app.netsuite.com/app/login/secure/authorizetoken.nl",
        accessToken: "https://\(host).restlets.api.netsuite.com/rest/accesstoken"),
      signatureMethod: .hmacSHA256, realm: realm,
      notes: [
        "Timestamps must be within 5 minutes of NetSuite's clock; a reused nonce answers NonceRejected.",
        "The SOAP tokenPassport signs another base string (account&consumer&token&nonce&timestamp): this profile is for REST and RESTlets.",
      ])
  }

  /// The NetSuite account id in a NetSuite URL (`https://123456-sb1.app.netsuite.com` → `123456-sb1`).
  static func netSuiteAccount(from url: URL) -> String? {
    guard let host = url.host, host.hasSuffix(".netsuite.com") else { return nil }
    return host.split(separator: ".").first.map(String.init)
  }

  /// Magento 2 (Adobe Commerce) integrations: HMAC-SHA256 (the only method since 2.4.4), in the
  /// header. Integration tokens used as bearer tokens are off by default, so requests are signed.
  ///
  /// Magento has no authorize page: when an admin activates the integration, Magento POSTs the
  /// `oauth_verifier` to the integration's callback URL ("a 2-legged OAuth handshake").
  ///
  /// Sources: https://developer.adobe.com/commerce/webapi/get-started/authentication/gs-authentication-oauth/
  /// (`/oauth/token/request`, `/oauth/token/access`, "Must be the value HMAC-SHA256", the
  /// verifier POSTed to the callback, integration tokens as bearer tokens disabled by default).
  /// (Issues only:) SHA-1 refused since 2.4.4, magento/magento2#35510; bracketed
  /// `searchCriteria[...]` names and encoded slashes, #33940, #37913, #37278.
  public static func magento(storeURL: URL) -> OAuthProvider {
    OAuthProvider(
      name: "magento", baseURL: storeURL,
      endpoints: .init(
        requestToken: "oauth/token/request", authorize: "", authenticate: "", accessToken: "oauth/token/access"),
      signatureMethod: .hmacSHA256,
      notes: [
        "Most integrations are activated in the admin, which hands out the access token directly: then skip login.",
        "A %2F in a path is decoded by Magento before it verifies: avoid encoded slashes in signed paths.",
      ])
  }

  /// WooCommerce REST API over plain http: one-legged (the consumer key and secret alone, the
  /// key `consumer_secret&`), the protocol parameters in the query, HMAC-SHA1 or HMAC-SHA256.
  /// Over https WooCommerce takes HTTP Basic authentication instead.
  ///
  /// Sources: the REST API documentation, "Authentication over HTTP"
  /// (`woocommerce/woocommerce-rest-api-docs`, `source/includes/wp-api-v3/_authentication.md`:
  /// one-legged, "HMAC-SHA1 or HMAC-SHA256", query or header, a 15-minute window) and the server,
  /// `plugins/woocommerce/includes/class-wc-rest-authentication.php` (the key `consumer_secret&`,
  /// the URL rebuilt from `home_url`, form fields signed, realm ignored, nonces kept per key).
  public static func wooCommerce(siteURL: URL) -> OAuthProvider {
    OAuthProvider(
      name: "woocommerce", baseURL: siteURL, signatureMethod: .hmacSHA256, acceptedSignatureMethods: [.hmacSHA256, .hmacSHA1],
      placement: .query,
      notes: ["Sign the site URL exactly as WordPress's home_url says it (127.0.0.1 and localhost differ)."])
  }

  /// Jira Data Center application links: RSA-SHA1 with the consumer's private key (its public
  /// key is pasted into the link); a refused request's body carries `oauth_problem` and
  /// `oauth_signature_base_string`.
  ///
  /// Sources: https://developer.atlassian.com/server/jira/platform/oauth/ (the
  /// `/plugins/servlet/oauth/...` endpoints, RSA-SHA1) and
  /// https://confluence.atlassian.com/kb/oauth-error-oauth_problem-timestamp_refused-720406801.html
  /// (a 5-minute window). (Issues only:) the 401 body with `oauth_signature_base_string` and
  /// PKCS#8 key trouble, jira-node/node-jira-client#44, sumoheavy/jira-ruby#361.
  public static func jira(baseURL: URL) -> OAuthProvider {
    atlassian("jira", baseURL)
  }

  /// Bitbucket Data Center application links: as ``jira(baseURL:)`` (RSA-SHA1, the same
  /// `/plugins/servlet/oauth/...` endpoints and refusals).
  ///
  /// Sources: https://developer.atlassian.com/server/bitbucket/how-tos/example-oauth-consumer/
  /// (Bitbucket Server's application links: the Atlassian OAuth plugin's endpoints, RSA-SHA1).
  public static func bitbucket(baseURL: URL) -> OAuthProvider {
    atlassian("bitbucket", baseURL)
  }

  /// Confluence Data Center application links: as ``jira(baseURL:)``.
  public static func confluence(baseURL: URL) -> OAuthProvider {
    atlassian("confluence", baseURL)
  }

  private static func atlassian(_ name: String, _ baseURL: URL) -> OAuthProvider {
    OAuthProvider(
      name: name, baseURL: baseURL,
      endpoints: .init(
        requestToken: "plugins/servlet/oauth/request-token", authorize: "plugins/servlet/oauth/authorize",
        authenticate: "plugins/servlet/oauth/authorize", accessToken: "plugins/servlet/oauth/access-token"),
      signatureMethod: .rsaSHA1,
      notes: ["Sign with --private-key: the PEM private key whose public key is in the application link."])
  }

  /// Mastercard Developers APIs: one-legged RSA-SHA256 with the consumer's signing key, and a
  /// SHA-256 `oauth_body_hash` on every request, an empty POST included.
  ///
  /// Sources: https://developer.mastercard.com/platform/documentation/security-and-authentication/using-oauth-1a-to-access-mastercard-apis/
  /// (RSA-SHA256, `oauth_body_hash` always, an empty body hashed, no realm) and the reference
  /// signers `Mastercard/oauth1-signer-java` and `-python`. `Vectors/mastercard-oauth1-signer.json`
  /// reproduces through this profile in the tests.
  public static func mastercard(baseURL: URL = URL(string: "https://sandbox.api.mastercard.com")!) -> OAuthProvider {
    OAuthProvider(
      name: "mastercard", baseURL: baseURL, signatureMethod: .rsaSHA256, bodyHash: .sha256,
      notes: [
        "The consumer key is the long key from the project page; the private key is its .p12 as issued (RSAPrivateKey(pkcs12:password:), oauth1 --rsa-key FILE with OAUTH1_KEY_PASSWORD)."
      ])
  }

  /// An LTI 1.1 launch as the learning platform sends it: a form POST signed one-legged with
  /// HMAC-SHA1, every field signed. The tool verifies it with `OAuthVerifier` (behind a proxy,
  /// against the public URL: `OAuthPublicURL`).
  ///
  /// Sources: http://www.imsglobal.org/LTI/v1p1/ltiIMGv1p1.html (1EdTech's LTI 1.1
  /// Implementation Guide, section 4, "Security Model": HMAC-SHA1, the form's fields signed;
  /// outcomes with a SHA-1 body hash). (Issues only:) a proxy in front,
  /// openedx/openedx-platform#6266 and oauthlib/oauthlib#142.
  public static func lti11(launchURL: URL) -> OAuthProvider {
    OAuthProvider(name: "lti", baseURL: launchURL, signatureMethod: .hmacSHA1)
  }
}
