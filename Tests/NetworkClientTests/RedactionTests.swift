import Foundation
import NetworkClient
import Testing

@Suite("Redaction")
struct RedactionTests {
  @Test func urlsKeepHarmlessParameters() {
    #expect(
      Redaction.url("https://a.example/x?oauth_signature=abc%3D&oauth_nonce=n&oauth_token=t#f")
        == "https://a.example/x?oauth_signature=<redacted>&oauth_nonce=n&oauth_token=<redacted>#f")
    #expect(Redaction.url("https://a.example/x") == "https://a.example/x")
  }

  @Test func formBodiesAndFreeText() {
    #expect(Redaction.form("oauth_token=a&oauth_token_secret=b&user_id=1") == "oauth_token=<redacted>&oauth_token_secret=<redacted>&user_id=1")
    // An OAuth header value runs to the end of its line.
    let text = Redaction.text("header was OAuth oauth_consumer_key=\"k\", oauth_signature=\"s\"\n" + #"{"access_token": "xyz", "id": "1"}"#)
    #expect(!text.contains("xyz") && !text.contains(#"oauth_signature="s""#))
    #expect(text.contains(#""id": "1""#))
    #expect(
      Redaction.text("Error processing your OAuth request: Invalid oauth_verifier parameter")
        == "Error processing your OAuth request: Invalid oauth_verifier parameter")
    #expect(Redaction.text("Bearer AAAA-token\nnext line") == "Bearer <redacted>\nnext line")
  }

  @Test func headers() {
    let redacted = Redaction.headers(["Authorization": "OAuth x", "Accept": "json", "cookie": "c"])
    #expect(redacted["authorization"] == "<redacted>" && redacted["Cookie"] == "<redacted>" && redacted["Accept"] == "json")
  }
}

/// The names OAuth 2.0 and its extensions carry secrets in, in every place they travel, and
/// ordinary words left alone (issue #35, item 9).
@Suite("Redaction: OAuth 2.0 names, headers, user info, and prose")
struct RedactionCoverageTests {
  static let secretNames = ["code", "code_verifier", "subject_token", "id_token", "assertion", "client_secret", "refresh_token", "access_token"]

  @Test(arguments: secretNames)
  func eachSecretNameIsRedactedInEveryPlace(name: String) {
    let secret = "S3cr3t-\(name.count)x"
    let places = [
      Redaction.url("https://app.example/cb?state=s1&\(name)=\(secret)#frag"),
      Redaction.form("grant_type=x&\(name)=\(secret)&redirect_uri=http%3A%2F%2F127.0.0.1"),
      Redaction.text("the body was grant_type=x&\(name)=\(secret)&scope=a"),
      Redaction.text(#"{"token_type":"bearer","\#(name)": "\#(secret)","expires_in":7200}"#),
      Redaction.text(#"BearerToken(\#(name): "\#(secret)", scopes: [])"#),
    ]
    for place in places {
      #expect(!place.contains(secret) && place.contains(Redaction.placeholder), "\(place)")
    }
    #expect(Redaction.isSensitive(parameter: name) && Redaction.isSensitive(parameter: name.uppercased()))
    #expect(places[0].hasSuffix("#frag") && places[0].contains("state=s1"))
    #expect(places[3].contains(#""token_type":"bearer""#) && places[3].contains(#""expires_in":7200"#))
  }

  @Test func camelCaseNamesAsCodableWritesThem() {
    let text = Redaction.text(#"{"accessToken":"A-1x","refreshToken":"R-2y","expiresAt":"2030"}"#)
    #expect(!text.contains("A-1x") && !text.contains("R-2y") && text.contains(#""expiresAt":"2030""#), "\(text)")
  }

  @Test(arguments: [
    "Bearer token required: log in again",
    "Basic authentication failed for this client",
    "the token: expired; the secret: unchanged",
    "Check the consumer key and secret, and that the computer's clock is right.",
    "X refused the OAuth 2.0 refresh token (invalid_grant): log in again with `tweets login --oauth2`",
    "Error processing your OAuth request: Invalid oauth_verifier parameter",
    "Could not authenticate you. (code 32)",
    #"{"errors":[{"code":89,"message":"Invalid or expired token."}]}"#,
    "error code: 215, password: wrong",
    "a token = none was given",
    "Authorization header missing",
  ])
  func proseIsLeftAlone(text: String) {
    #expect(Redaction.text(text) == text)
  }

  @Test func headerLinesInText() {
    #expect(Redaction.text("Authorization: Bearer abc.def-ghi\nAccept: json") == "Authorization: Bearer <redacted>\nAccept: json")
    #expect(Redaction.text("> authorization: OAuth oauth_consumer_key=\"k\", oauth_signature=\"s%3D\"") == "> authorization: OAuth <redacted>")
    #expect(Redaction.text("Cookie: session=abc; theme=dark\r\nX-Api-Key: k-123") == "Cookie: <redacted>\r\nX-Api-Key: <redacted>")
    #expect(Redaction.text(#"["Authorization": "Basic dXNlcjpwYXNz", "Accept": "json"]"#) == #"["Authorization": "<redacted>", "Accept": "json"]"#)
    #expect(Redaction.text("Authorization: <redacted>") == "Authorization: <redacted>", "redacting twice changes nothing")
    #expect(Redaction.text("sent Bearer dXNlcjpwYXNz and Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==") == "sent Bearer <redacted> and Basic <redacted>")
  }

  @Test func userInfoInURLs() {
    #expect(Redaction.url("http://user:hunter2@127.0.0.1:8080/2/users/me?x=1") == "http://user:<redacted>@127.0.0.1:8080/2/users/me?x=1")
    #expect(Redaction.url("https://ghp_tokenonly@example.com/") == "https://<redacted>@example.com/")
    #expect(Redaction.url("https://example.com/path@not-userinfo?a=b@c") == "https://example.com/path@not-userinfo?a=b@c")
    #expect(
      Redaction.text("could not connect to http://me:pa55@host:1/x (refused)") == "could not connect to http://me:<redacted>@host:1/x (refused)")
    #expect(MessageURL.text("http://u:p4ss@api.example.com/2/x") == "http://u:<redacted>@api.example.com/2/x")
  }
}

@Suite("Redaction: a URL without its user info")
struct RemovingUserInfoTests {
  @Test func theUserInfoGoesAndNothingElse() {
    #expect(Redaction.removingUserInfo("http://me:pw@127.0.0.1:8080/2?a=b@c#f") == "http://127.0.0.1:8080/2?a=b@c#f")
    #expect(Redaction.removingUserInfo("https://token@example.com") == "https://example.com")
    #expect(Redaction.removingUserInfo("https://a:b@c@example.com/x") == "https://example.com/x", "the last @ ends the user info")
    #expect(Redaction.removingUserInfo("https://example.com/p@th") == "https://example.com/p@th")
    #expect(Redaction.removingUserInfo("not a url") == "not a url")
  }
}

/// Inputs the fuzzer found (`.ci/fuzz redaction`), kept as regression tests.
@Suite("Redaction: what the fuzzer found")
struct RedactionFuzzRegressionTests {
  /// A user part holding `@` kept its text, and redacting the result again cut it at the
  /// placeholder's `<`: now the whole user info goes, and twice is once.
  @Test func aUserPartWithAnAtSignIsReplacedWhole() {
    let once = Redaction.text("http://m5ea5\u{BA}@ph5:pw@host/")
    #expect(once == "http://<redacted>@host/")
    #expect(Redaction.text(once) == once)
    #expect(Redaction.text("http://user:@host/") == "http://user:@host/", "no password, nothing to hide")
    #expect(Redaction.url("http://a@b:pw@host/") == "http://<redacted>@host/")
  }
}
