import Foundation
import OAuth1

/// A form signed with OAuth 1.0a (the parameters themselves, `oauth_*` among them), ready to be
/// POSTed to ``url``: an LTI launch from a platform, or a Content-Item selection back to one.
/// ``body`` is what a program posts; ``html`` is the page whose form a browser submits by itself.
///
/// ```swift
/// let form = try LTISignedForm.sign(
///   url: "https://tool.example.edu/launch", parameters: launch.parameters,
///   consumer: Credentials(key: "lms-key", secret: "lms-secret"))
/// response.body = Data(form.html.utf8)  // the browser posts it to the tool
/// ```
public struct LTISignedForm: Sendable, Hashable {
  /// Where the form is posted.
  public let url: String
  /// Every field, `oauth_signature` among them, decoded.
  public let parameters: [OAuthParameter]

  /// Signs `parameters` for a POST to `url` (their `oauth_*` ones are replaced).
  ///
  /// - Parameters:
  ///   - url: where the form goes, as the receiver will see it (its query is signed too).
  ///   - parameters: the form's fields.
  ///   - consumer: the consumer key and secret shared with the receiver.
  ///   - signatureMethod: HMAC-SHA1 by default, HMAC-SHA256 where the receiver takes it.
  ///   - clock: where `oauth_timestamp` comes from; the system clock by default.
  /// - Throws: ``LTIError/invalidRequest(_:)`` for a URL that is not absolute http(s).
  public static func sign(
    url: String, parameters: [OAuthParameter], consumer: Credentials, signatureMethod: OAuthSignatureMethod = .hmacSHA1,
    clock: any OAuthClock = SystemClock()
  ) throws(LTIError) -> LTISignedForm {
    let fields = parameters.filter { !$0.name.hasPrefix("oauth_") }
    let request = OAuthRequest(
      method: "POST", url: url, body: Data(OAuthFormEncoding.encode(fields).utf8), contentType: "application/x-www-form-urlencoded")
    do {
      let signer = try OAuthSigner(consumer: consumer, configuration: OAuthSigner.Configuration(signatureMethod: signatureMethod, clock: clock))
      let protocolParameters = try signer.signedProtocolParameters(for: request)
      return LTISignedForm(url: url, parameters: fields + protocolParameters)
    } catch {
      throw .invalidRequest("the form for \(LTIError.quoted(url)) cannot be signed: \(error)")
    }
  }

  /// The `application/x-www-form-urlencoded` body.
  public var body: Data { Data(OAuthFormEncoding.encode(parameters).utf8) }

  /// A page that posts the form as soon as it loads (and shows a button where scripts are off).
  public var html: String {
    let e = LTIMarkup.escape
    let fields = parameters.map { "<input type=\"hidden\" name=\"\(e($0.name))\" value=\"\(e($0.value))\">" }.joined(separator: "\n")
    return """
      <!DOCTYPE html>
      <html><head><meta charset="utf-8"><title>Launching…</title></head>
      <body onload="document.forms[0].submit()">
      <form method="post" action="\(e(url))" enctype="application/x-www-form-urlencoded">
      \(fields)
      <noscript><button type="submit">Continue</button></noscript>
      </form>
      </body></html>

      """
  }
}
