import CommandLineSupport
import Foundation
import LTI
import OAuth1

/// `oauth1 lti launch|tool|serve`: LTI 1.1 from the command line, on the `LTI` library. `launch`
/// acts as a learning platform and posts one signed launch; `tool` is a minimal tool that
/// verifies launches and sends grades; `serve` is a loopback platform to develop a tool against.
struct LTICommand: OAuth1Subcommand {
  static let spec = CommandSpec(
    name: "oauth1 lti",
    summary: "LTI 1.1: post a signed launch to a tool (launch), run a minimal tool (tool), or a loopback LMS to develop one against (serve).",
    options: [
      SigningOptions.consumerKey, SigningOptions.consumerSecret, SigningOptions.signatureMethod, userID, roles, contextID, resourceLinkID,
      outcomeURL, sourcedID, custom, form, ServeCommand.port, tool, ServeCommand.untilStdinCloses, OAuth1Command.versionOption,
    ],
    positionals: [
      PositionalSpec("action", help: "launch, tool or serve"), PositionalSpec("url", help: "launch: the tool's launch URL", optional: true),
    ],
    discussion: """
      oauth1 lti launch URL --consumer-key K --consumer-secret S [--user-id ID] [--roles R,...]
          [--context-id ID] [--resource-link-id ID] [--outcome-url URL --sourcedid ID]
          [--custom NAME=VALUE ...] [--signature-method HMAC-SHA1|HMAC-SHA256] [--form]
        Acts as the LMS: POSTs a signed basic-lti-launch-request to URL and prints the tool's
        status and answer, or with --form prints the auto-submitting HTML form a browser posts.

      oauth1 lti tool --port P --consumer-key K --consumer-secret S
        A minimal tool on 127.0.0.1: any POST is a launch, verified (HMAC-SHA1 or HMAC-SHA256,
        each nonce once, timestamps within 5 minutes) and answered 200 with the typed launch as
        JSON, or 401/400 with {"error": reason}. POST /grade with the form fields sourcedid and
        score sends the grade to the outcome service of the launch that carried that sourcedid
        and answers {"status", "description"}.

      oauth1 lti serve --port P --consumer-key K --consumer-secret S [--tool URL]
        A loopback LMS: GET / is a page that launches the tool at --tool as a chosen user and
        role; POST /outcomes is the outcome service, which verifies every grade (signature,
        nonce, timestamp, oauth_body_hash) and records it, marking a sourcedid it did not issue
        (issued: false); GET /grades lists them as JSON; POST /content-item is the Content-Item
        return endpoint, which verifies the selection and shows its items (GET /content-items as JSON).

      The servers keep at most 10000 grades, selections and sourcedids. The secret may come from
      OAUTH1_CONSUMER_SECRET instead of --consumer-secret; no secret is printed or logged.
      Example:
        oauth1 lti tool --port 8100 --consumer-key k --consumer-secret s &
        oauth1 lti launch http://127.0.0.1:8100/launch --consumer-key k --consumer-secret s --roles Instructor
      """)

  static let userID = Option.value("user-id", placeholder: "ID", help: "launch: user_id (default student-1).")
  static let roles = Option.value("roles", placeholder: "R,...", help: "launch: roles, comma-separated, short or URN (default Learner).")
  static let contextID = Option.value("context-id", placeholder: "ID", help: "launch: context_id.")
  static let resourceLinkID = Option.value("resource-link-id", placeholder: "ID", help: "launch: resource_link_id (default link-1).")
  static let outcomeURL = Option.value("outcome-url", placeholder: "URL", help: "launch: lis_outcome_service_url (with --sourcedid).")
  static let sourcedID = Option.value("sourcedid", placeholder: "ID", help: "launch: lis_result_sourcedid (with --outcome-url).")
  static let custom = Option.repeatable("custom", placeholder: "NAME=VALUE", help: "launch: a custom_NAME parameter; repeatable.")
  static let form = Option.flag("form", help: "launch: print the auto-submitting HTML form instead of posting it.")
  static let tool = Option.value("tool", placeholder: "URL", help: "serve: the tool's launch URL the page launches.")

  static func run(_ parsed: ParsedArguments) async throws -> Int32 {
    guard let action = parsed.positionals.first else { throw UsageError("missing the action: launch, tool or serve") }
    guard let key = parsed[SigningOptions.consumerKey] else { throw UsageError("missing --consumer-key") }
    guard let secret = parsed[SigningOptions.consumerSecret] ?? ProcessInfo.processInfo.environment["OAUTH1_CONSUMER_SECRET"] else {
      throw UsageError("missing --consumer-secret (or OAUTH1_CONSUMER_SECRET)")
    }
    let credentials = Credentials(key: key, secret: secret)
    let url = parsed.positionals.dropFirst().first
    switch action {
    case "launch":
      guard let url else { throw UsageError("oauth1 lti launch needs the tool's launch URL") }
      return try await LTILaunchAction.run(parsed, url: url, credentials: credentials)
    case "tool":
      if url != nil { throw UsageError("oauth1 lti tool takes no URL") }
      return try await LTIToolServer.run(parsed, credentials: credentials)
    case "serve":
      if url != nil { throw UsageError("oauth1 lti serve takes no URL; give the tool's with --tool") }
      return try await LTIPlatformServer.run(parsed, credentials: credentials)
    default:
      throw UsageError("unknown action \(CommandSpec.shown(action)): use launch, tool or serve")
    }
  }

  /// `--signature-method`, HMAC-SHA1 or HMAC-SHA256 (what LTI platforms use), HMAC-SHA1 by default.
  static func signatureMethod(_ parsed: ParsedArguments) throws(UsageError) -> OAuthSignatureMethod {
    let method = try SigningOptions.signatureMethod(parsed) ?? .hmacSHA1
    guard method == .hmacSHA1 || method == .hmacSHA256 else { throw UsageError("LTI 1.1 signs with HMAC-SHA1 or HMAC-SHA256") }
    return method
  }
}
