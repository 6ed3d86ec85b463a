import Foundation
import OAuth1
import Testing

/// Reading the refusals providers really send (shapes from their documentation and from
/// recorded answers quoted in issue threads).
@Suite("Provider problem reports")
struct ProblemReportTests {
  let baseString = "GET&https%3A%2F%2Fwww.flickr.com%2Fservices%2Frest&format%3Djson%26method%3Dflickr.test.login%26oauth_nonce%3Dn"

  @Test func flickrAppendsItsBaseStringUnencoded() throws {
    let report = try #require(OAuthProblemReport(body: "oauth_problem=signature_invalid&debug_sbs=\(baseString)"))
    #expect(report.problem == "signature_invalid")
    #expect(report.signatureBaseString == baseString)
  }

  @Test func atlassianEncodesItAsAFormField() throws {
    let body =
      "oauth_problem=signature_invalid&oauth_signature=abc%3D&oauth_signature_base_string="
      + OAuthPercentEncoding.encode(baseString) + "&oauth_signature_method=RSA-SHA1"
    let report = try #require(OAuthProblemReport(body: body))
    #expect(report.problem == "signature_invalid")
    #expect(report.signatureBaseString == baseString)
  }

  /// Google's OAuth 1.0 endpoint, as recorded in scribejava/scribejava#45.
  @Test func googlesBareProblemAndBaseStringLine() throws {
    let report = try #require(OAuthProblemReport(body: "signature_invalid\nbase_string:\(baseString)\n\n"))
    #expect(report.problem == "signature_invalid")
    #expect(report.signatureBaseString == baseString)
  }

  @Test func crlfLinesAndLowerCaseEscapes() throws {
    let report = try #require(OAuthProblemReport(body: "signature_invalid\r\nbase_string:\(baseString)\r\n"))
    #expect(report.signatureBaseString == baseString)
    let lower = baseString.replacingOccurrences(of: "%3A%2F%2F", with: "%3a%2f%2f")
    #expect(OAuthProblemReport(body: "oauth_problem=signature_invalid&debug_sbs=\(lower)")?.signatureBaseString == lower)
    let quoted = try #require(
      OAuthProblemReport(body: "", wwwAuthenticate: #"OAuth realm="x", oauth_problem="timestamp_refused", oauth_problem_advice="late, by 9 s""#))
    #expect(quoted.problem == "timestamp_refused" && quoted.advice == "late, by 9 s")
  }

  /// Delicious (Yahoo) put the problem in `WWW-Authenticate` only (joestump/python-oauth2#27).
  @Test func theProblemInWWWAuthenticate() throws {
    let report = try #require(OAuthProblemReport(body: "", wwwAuthenticate: "OAuth oauth_problem=signature_invalid"))
    #expect(report.problem == "signature_invalid" && report.signatureBaseString == nil)
  }

  @Test func thisPackagesVerifierAnswerRoundTrips() throws {
    let error = OAuthVerificationError(.signatureInvalid, advice: "the signature does not match", signatureBaseString: baseString)
    #expect(!error.response(realm: "Photos").body.contains("base_string"))
    let answer = error.response(realm: "Photos", includingBaseString: true)
    let report = try #require(OAuthProblemReport(body: answer.body))
    #expect(report.problem == "signature_invalid" && report.advice == "the signature does not match")
    #expect(report.signatureBaseString == baseString)
    let timestamps = OAuthVerificationError(.timestampRefused, advice: "late", acceptableTimestamps: 100...700).response()
    #expect(OAuthProblemReport(body: timestamps.body)?.acceptableTimestamps == "100-700")
  }

  /// Flickr's JSON answer, with the base string under `debug_sbs`.
  @Test func flickrsJSONAnswer() throws {
    let body = #"{"stat":"fail","code":96,"message":"Invalid signature","debug_sbs":"\#(baseString)"}"#
    let report = try #require(OAuthProblemReport(body: body))
    #expect(report.signatureBaseString == baseString && report.problem == nil)
    let ours = baseString.replacingOccurrences(of: "www.flickr.com", with: "api.flickr.com")
    let rejection = OAuthRejection(status: 401, body: body, signatureBaseString: ours)
    #expect(rejection.diff?.first == .host(ours: "api.flickr.com", provider: "www.flickr.com"))
    #expect(!rejection.description.contains("It sent no base string of its own"))
  }

  @Test func jsonFieldsAtAnyDepth() throws {
    let nested =
      #"{"errors":[{"code":401,"oauth":{"oauth_problem":"signature_invalid","oauth_signature_base_string":"\#(baseString)","#
      + #""oauth_parameters_absent":["oauth_nonce","oauth_token"]}}]}"#
    let report = try #require(OAuthProblemReport(body: nested))
    #expect(report.problem == "signature_invalid" && report.signatureBaseString == baseString)
    #expect(report.parameters == ["oauth_nonce", "oauth_token"])
    // JSON's own escapes are read as JSON: `\/` is a slash, `\u0026` an ampersand.
    let escaped = baseString.replacingOccurrences(of: "&", with: "\\u0026")
    #expect(OAuthProblemReport(body: #"{"debug_sbs":"\#(escaped)"}"#)?.signatureBaseString == baseString)
  }

  /// Under a name this reader does not know: any value shaped like a base string that reads as one.
  @Test func aValueShapedLikeABaseString() throws {
    let json = #"{"error":"invalid_signature","detail":{"expected":"\#(baseString)"}}"#
    #expect(OAuthProblemReport(body: json)?.signatureBaseString == baseString)
    let sentence = #"{"message":"Invalid signature. We signed \#(baseString), did you?"}"#
    #expect(OAuthProblemReport(body: sentence)?.signatureBaseString == baseString)
    let form = "error=invalid_signature&sbs=" + OAuthPercentEncoding.encode(baseString)
    #expect(OAuthProblemReport(body: form)?.signatureBaseString == baseString)
    let text = "Signature invalid.\nExpected signature base string: \(baseString)\nCheck your clock."
    #expect(OAuthProblemReport(body: text)?.signatureBaseString == baseString)
    let html = "<html><body><p>Bad signature</p><pre>\(baseString)</pre></body></html>"
    #expect(OAuthProblemReport(body: html)?.signatureBaseString == baseString)
  }

  @Test func textThatOnlyLooksLikeABaseString() {
    for body in [
      "GET&http is not a method", "see xGET&https%3A%2F%2Fa.example&b%3D1", #"{"message":"GET&https://a.example/&a=1"}"#,
      "GET&https%3A%2F%2F&", "POST&https%3A%2F%2Fa.example%2Fp",
    ] {
      #expect(OAuthProblemReport(body: body)?.signatureBaseString == nil, "\(body)")
    }
  }

  @Test func anAnswerWithNothingAboutOAuth() {
    #expect(OAuthProblemReport(body: #"{"errors":[{"message":"Could not authenticate you","code":32}]}"#) == nil)
    #expect(OAuthProblemReport(body: "Invalid signature") == nil)
  }

  @Test func aRejectionShowsTheFirstDifference() throws {
    let ours = baseString.replacingOccurrences(of: "https%3A", with: "http%3A")
    let rejection = OAuthRejection(status: 401, body: "oauth_problem=signature_invalid&debug_sbs=\(baseString)", signatureBaseString: ours)
    #expect(rejection.diff?.first == .scheme(ours: "http", provider: "https"))
    #expect(rejection.description.contains("HTTP 401): signature_invalid"))
    #expect(rejection.description.contains("  provider: \(baseString)"))
  }

  @Test func ourBaseStringRebuiltFromTheSentRequest() throws {
    let generator = try OAuthSignatureGenerator(
      consumer: Credentials(key: "ck", secret: "cs"), token: Credentials(key: "tk", secret: "ts"),
      request: OAuthRequest(
        method: "POST", url: "https://api.example.com/items?x=1", body: Data("a=b".utf8), contentType: "application/x-www-form-urlencoded"),
      options: .init(nonce: "n", timestamp: 1, realm: "R"))
    let rebuilt = try OAuthSignatureBaseString.make(received: generator.request, authorization: generator.authorizationHeader)
    #expect(rebuilt == generator.signatureBaseString)
    let rejection = OAuthRejection(status: 401, body: "", request: generator.request, authorization: generator.authorizationHeader)
    #expect(rejection.signatureBaseString == generator.signatureBaseString && rejection.diff == nil)
  }
}
