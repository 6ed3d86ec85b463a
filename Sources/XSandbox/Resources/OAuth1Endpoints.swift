import Foundation
import OAuth1

/// The PIN flow of OAuth 1.0a: `POST /oauth/request_token`, the authorize page, `POST
/// /oauth/access_token` (`x-api/authentication/api-reference`).
extension XSandbox {
  /// `POST /oauth/request_token` and `POST /oauth/access_token`, once authenticated: a request
  /// token with a PIN waiting for it, or an access token of @sandbox_user (form-encoded, with
  /// X's `text/html` content type).
  func oauthEndpoint(method: String, path: String, caller: SandboxCaller) -> SandboxResponse {
    guard method == "POST" else { return .v1(404, XBodies.pageDoesNotExist) }
    if path == "/oauth/request_token" {
      let token = SandboxTokens.randomString(length: 27)
      let pending = PendingRequestToken(
        secret: SandboxTokens.randomString(length: 32), verifier: String(Int.random(in: 1_000_000...9_999_999)),
        callback: caller.callback ?? "oob")
      state.withLock { $0.requestTokens[token] = pending }
      return .text(
        200, "oauth_token=\(token)&oauth_token_secret=\(pending.secret)&oauth_callback_confirmed=true",
        contentType: SandboxResponse.htmlContentType)
    }
    let user = SandboxData.usersByID[SandboxData.mainUserID]!
    let issued = SandboxTokens.issue(for: user.id)
    state.withLock { $0.accessTokens[issued.key] = (issued.secret, user.id) }
    return .text(
      200, "oauth_token=\(issued.key)&oauth_token_secret=\(issued.secret)&user_id=\(user.id)&screen_name=\(user.username)",
      contentType: SandboxResponse.htmlContentType)
  }

  /// `GET /oauth/authorize?oauth_token=`: the page a user would see after approving the app,
  /// with the PIN in `<code id="oauth_pin">` (and, for a web callback, the link back).
  func authorizePage(token: String) -> SandboxResponse {
    guard let pending = state.withLock({ $0.requestTokens[token] }) else { return .html(404, XBodies.notFoundPage) }
    var link = ""
    if pending.callback != "oob" {
      let separator = pending.callback.contains("?") ? "&" : "?"
      let target = pending.callback + separator + "oauth_token=" + OAuthPercentEncoding.encode(token) + "&oauth_verifier=" + pending.verifier
      link = "<p><a id=\"oauth_callback\" href=\"\(Self.escapeHTML(target))\">Return to the application</a></p>\n"
    }
    let user = SandboxData.usersByID[SandboxData.mainUserID]!
    let page = """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8"><title>Authorize application</title></head>
      <body><div class="oauth_pin_page"><p>You've granted access to the X sandbox app as @\(user.username).</p>
      <p>Next, return to the app and enter this PIN to complete the authorization process:</p>
      <p><kbd aria-labelledby="code-desc"><code id="oauth_pin">\(pending.verifier)</code></kbd></p></div>
      \(link)</body></html>

      """
    return .html(200, page)
  }

  static func escapeHTML(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
