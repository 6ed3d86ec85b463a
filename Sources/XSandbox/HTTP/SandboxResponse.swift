import Foundation
import Loopback
import OAuth1
import PercentEncoding

/// A response under construction: status, headers in order, body.
struct SandboxResponse: Sendable {
  var status: Int
  var headers: [(String, String)]
  var body: Data
  /// For `GET /2/tweets/search/stream` once accepted: the request's query, whose fields the
  /// stream's posts carry (``XSandbox`` then serves the stream).
  var streamQuery: [String: String]?
  /// For `POST /2/webhooks` and `PUT /2/webhooks/:id` once the request is found sound: the CRC
  /// to send, off the state's lock, before the answer is made
  /// (``XSandbox/finishWebhookCheck(_:answer:now:)``).
  var webhookCheck: SandboxWebhookState.PendingCheck?
  /// A body written over time (the filtered stream) instead of ``body``.
  var stream: (@Sendable (any StreamingBodyWriter) -> Void)?
  /// The ids of the resources the answer serves (``JSON/servedIDs(v1:)``): what a billed route
  /// charges.
  var servedIDs: [String] = []
  /// What a test's script put in place of the sandbox's own answer (`invalid_json`, `html`,
  /// `body`, `redirect`): not the sandbox's rendering, so the exchange log marks it.
  var scripted: String?

  init(status: Int, contentType: String?, body: Data, headers: [(String, String)] = []) {
    self.status = status
    self.headers = (contentType.map { [("Content-Type", $0)] } ?? []) + headers
    self.body = body
  }

  static let v1ContentType = "application/json;charset=utf-8"
  static let v2ContentType = "application/json; charset=utf-8"
  static let htmlContentType = "text/html; charset=utf-8"
  static let textContentType = "text/plain; charset=utf-8"

  /// A v1.1 (and OAuth-endpoint) JSON answer, `/` escaped as X does.
  static func v1(_ status: Int, _ json: JSON, headers: [(String, String)] = []) -> SandboxResponse {
    var response = SandboxResponse(status: status, contentType: v1ContentType, body: json.encoded(escapingSlashes: true), headers: headers)
    response.servedIDs = json.servedIDs(v1: true)
    return response
  }

  /// A v2 JSON answer.
  static func v2(_ status: Int, _ json: JSON, headers: [(String, String)] = []) -> SandboxResponse {
    var response = SandboxResponse(status: status, contentType: v2ContentType, body: json.encoded(), headers: headers)
    response.servedIDs = json.servedIDs(v1: false)
    return response
  }

  static func html(_ status: Int, _ text: String) -> SandboxResponse {
    SandboxResponse(status: status, contentType: htmlContentType, body: Data(text.utf8))
  }

  static func text(_ status: Int, _ text: String, contentType: String = textContentType) -> SandboxResponse {
    SandboxResponse(status: status, contentType: contentType, body: Data(text.utf8))
  }
}

/// X's error bodies, verbatim.
enum XBodies {
  static func v1Errors(_ code: Int, _ message: String) -> JSON {
    .object([("errors", .array([.object([("code", .int(code)), ("message", .string(message))])]))])
  }

  static let badAuthentication = v1Errors(215, "Bad Authentication data.")
  static let couldNotAuthenticate = v1Errors(32, "Could not authenticate you.")
  static let invalidToken = v1Errors(89, "Invalid or expired token.")
  static let timestampOutOfBounds = v1Errors(135, "Timestamp out of bounds.")
  static let pageDoesNotExist = v1Errors(34, "Sorry, that page does not exist.")
  static let rateLimitExceeded = JSON.object([("errors", .array([.object([("message", .string("Rate limit exceeded")), ("code", .int(88))])]))])

  static func problem(title: String, detail: String, type: String = "about:blank", status: Int) -> JSON {
    .object([("title", .string(title)), ("type", .string(type)), ("status", .int(status)), ("detail", .string(detail))])
  }

  static let unauthorized = problem(title: "Unauthorized", detail: "Unauthorized", status: 401)
  static let forbidden = problem(title: "Forbidden", detail: "Forbidden", status: 403)
  static let tooManyRequests = JSON.object([
    ("title", .string("Too Many Requests")), ("detail", .string("Too Many Requests")), ("type", .string("about:blank")), ("status", .int(429)),
  ])
  static let appOnlyForbidden = problem(
    title: "Unsupported Authentication",
    detail:
      "Authenticating with OAuth 2.0 Application-Only is forbidden for this endpoint.  Supported authentication types are [OAuth 1.0a User Context, OAuth 2.0 User Context].",
    type: "https://api.twitter.com/2/problems/unsupported-authentication", status: 403)
  /// X's answer to a user-context signature on an app-only endpoint.
  static let userContextForbidden = problem(
    title: "Unsupported Authentication",
    detail:
      "Authenticating with OAuth 1.0a User Context is forbidden for this endpoint.  Supported authentication types are [OAuth 2.0 Application-Only].",
    type: "https://api.twitter.com/2/problems/unsupported-authentication", status: 403)
  /// X's answer to an OAuth 1.0a signature on an endpoint served to OAuth 2.0 user context only.
  static let oauth1Forbidden = problem(
    title: "Unsupported Authentication",
    detail:
      "Authenticating with OAuth 1.0a User Context is forbidden for this endpoint.  Supported authentication types are [OAuth 2.0 User Context].",
    type: "https://api.twitter.com/2/problems/unsupported-authentication", status: 403)
  /// X's answer to an OAuth 2.0 user access token on an endpoint its specification serves to
  /// OAuth 1.0a user context and app-only (webhook management).
  static let oauth2Forbidden = problem(
    title: "Unsupported Authentication",
    detail:
      "Authenticating with OAuth 2.0 User Context is forbidden for this endpoint.  Supported authentication types are [OAuth 1.0a User Context, OAuth 2.0 Application-Only].",
    type: "https://api.twitter.com/2/problems/unsupported-authentication", status: 403)
  static let duplicate = JSON.object([
    ("detail", .string("You are not allowed to create a Tweet with duplicate content.")), ("type", .string("about:blank")),
    ("title", .string("Forbidden")), ("status", .int(403)),
  ])
  static let tooLong = JSON.object([
    (
      "detail",
      .string("Your Tweet text is too long. For more information on how Twitter determines text length see https://github.com/twitter/twitter-text.")
    ),
    ("type", .string("about:blank")), ("title", .string("Forbidden")), ("status", .int(403)),
  ])

  private static let invalidRequestTail: [(String, JSON)] = [
    ("title", .string("Invalid Request")), ("detail", .string("One or more parameters to your request was invalid.")),
    ("type", .string("https://api.twitter.com/2/problems/invalid-request")),
  ]

  /// A v2 400 about one query parameter.
  static func invalidRequest(_ parameter: String, _ values: [String], _ message: String) -> JSON {
    .object(
      [
        (
          "errors",
          .array([
            .object([
              ("parameters", .object([(parameter, .array(values.map(JSON.string)))])), ("message", .string(message)),
            ])
          ])
        )
      ] + invalidRequestTail)
  }

  /// A v2 400 about the body.
  static func invalidBody(_ message: String) -> JSON {
    .object([("errors", .array([.object([("message", .string(message))])]))] + invalidRequestTail)
  }

  static let jsonRequired = JSON.object(
    [
      (
        "errors",
        .array([.object([("parameters", .object([])), ("message", .string("Requests with bodies must have content-type of application/json."))])])
      )
    ] + invalidRequestTail)

  /// A v2 partial error (`resource-not-found`), inside a 200.
  static func notFound(_ value: String, resourceType: String, parameter: String, detail: String) -> JSON {
    .object(notFoundFields(value, resourceType: resourceType, parameter: parameter, detail: detail))
  }

  private static func notFoundFields(_ value: String, resourceType: String, parameter: String, detail: String) -> [(String, JSON)] {
    [
      ("value", .string(value)), ("detail", .string(detail)), ("title", .string("Not Found Error")),
      ("resource_type", .string(resourceType)), ("parameter", .string(parameter)), ("resource_id", .string(value)),
      ("type", .string("https://api.twitter.com/2/problems/resource-not-found")),
    ]
  }

  /// A v2 404 for a resource a path names that does not exist (a list): the not-found problem
  /// with its status, so clients read it as X's `resource-not-found`.
  static func missingResource(_ value: String, resourceType: String, parameter: String = "id") -> JSON {
    .object(
      notFoundFields(value, resourceType: resourceType, parameter: parameter, detail: "Could not find \(resourceType) with \(parameter): [\(value)].")
        + [("status", .int(404))])
  }

  /// The app id in ``clientForbidden``, as X names the calling app there.
  static let sandboxClientID = "29841730"

  /// X's 403 for an endpoint the app's access level does not include (full-archive search for
  /// an app that is not enrolled), verbatim but for the app id.
  static let clientForbidden = JSON.object([
    ("client_id", .string(sandboxClientID)),
    (
      "detail",
      .string(
        "When authenticating requests to the Twitter API v2 endpoints, you must use keys and tokens from a Twitter developer App that is attached to a Project. You can create a project via the developer portal."
      )
    ),
    ("registration_url", .string("https://developer.twitter.com/en/docs/projects/overview")), ("title", .string("Client Forbidden")),
    ("required_enrollment", .string("Appropriate Level of API Access")), ("reason", .string("client-not-enrolled")),
    ("type", .string("https://api.twitter.com/2/problems/client-forbidden")),
  ])

  /// X's 403 for a reply to a tweet that does not exist (any more).
  static let replyGone = JSON.object([
    ("detail", .string("You attempted to reply to a Tweet that is deleted or not visible to you.")), ("type", .string("about:blank")),
    ("title", .string("Forbidden")), ("status", .int(403)),
  ])

  static let verifierError = "Error processing your OAuth request: Invalid oauth_verifier parameter"

  static let notFoundPage = """
    <!DOCTYPE html>
    <html lang="en"><head><meta charset="utf-8"><title>Twitter / ?</title></head>
    <body><div class="errorpage-body-content"><h1>Nothing to see here</h1>
    <p>Sorry, that page doesn\u{2019}t exist! <a href="https://twitter.com/">Back to home</a></p>
    <img src="https://abs.twimg.com/errors/logo46x38.png" alt="poodle"></div></body></html>

    """
}
