import DateFormats
import Foundation
import NetworkClient

/// What went wrong with a call to the X API, with what to do about it. X's error codes (v1.1)
/// and problem types (v2) become cases; anything else keeps the status and X's own words.
///
/// ```swift
/// do {
///   _ = try await client.v2.me()
/// } catch .rateLimited(let reset, _) {
///   print("rate limited until", reset ?? Date())
/// } catch {
///   print(error)  // e.g. "X could not authenticate you (code 32): ..."
/// }
/// ```
public enum XError: Error, Sendable, CustomStringConvertible {
  /// Code 32 (v1.1 and the OAuth endpoints): the signature did not verify.
  case couldNotAuthenticate(message: String)
  /// A v2 401 "Unauthorized", which carries no code: the signature did not verify, or the token
  /// is unknown, revoked or expired — v2 does not say which.
  case unauthorized(message: String)
  /// Code 89: the access token is wrong, expired or revoked.
  case invalidOrExpiredToken(message: String)
  /// Code 88, or HTTP 429.
  case rateLimited(reset: Date?, rateLimit: RateLimit?)
  /// Code 135: the request's timestamp is too far from X's clock. `skew` is X's clock minus
  /// ours, from the response's `Date` header, when it had one.
  case timestampOutOfBounds(skew: TimeInterval?)
  /// Code 215: the request carries no usable authentication.
  case badAuthenticationData(message: String)
  /// Code 453, or a v2 403 for the access level: the app's tier does not include the endpoint.
  case accessLevel(message: String)
  /// v2 `client-not-enrolled`: the app is not attached to a Project.
  case clientNotEnrolled(message: String)
  /// HTTP 402 or a usage cap: the account's credits or monthly cap are used up.
  case creditsDepleted(message: String)
  /// Codes 34 and 144, v2 `resource-not-found`, or a 404 page.
  case notFound(message: String)
  /// Codes 187, or v2 duplicate content.
  case duplicate(message: String)
  /// Any other error X reported; `attempts` is more than 1 when it kept failing after retries.
  case api(status: Int, code: Int?, message: String, attempts: Int = 1)
  /// A response that is not the API's JSON (an HTML page from a proxy, a truncated body ...);
  /// `attempts` is more than 1 when it kept coming after retries.
  case unexpectedResponse(status: Int, excerpt: String, attempts: Int = 1)
  /// No usable answer: transport failure, cancellation, an invalid request.
  case network(NetworkError)
  /// A file X would not take (its type, its size, its alt text), refused before any byte was sent.
  case invalidMedia(message: String)
  /// X could not process an uploaded video or GIF (`processing_info.state` `failed`).
  case mediaProcessingFailed(message: String)
  /// A 403 for an operation X sells to Enterprise only (``XEndpoint/Access/enterprise(because:)``):
  /// the self-serve (pay-per-use) tiers may not call it, whatever the credentials, so it is
  /// never retried. `endpoint` is the row (`POST /2/users/{id}/likes`), `reason` why X sells
  /// it so, `message` X's own words.
  case enterpriseOnly(endpoint: String, reason: String, message: String)
  /// X refused filtered-stream rules: it answered 200 or 201 with an `errors` list (a rule it
  /// cannot parse, one already there, more than the access level allows), and created none.
  case streamRulesRefused([StreamRuleProblem])

  public var description: String {
    /// X's own sentences end with a period; ours follow them.
    func trimmed(_ text: String) -> String { text.hasSuffix(".") ? String(text.dropLast()) : text }
    switch self {
    case .couldNotAuthenticate(let message):
      return
        "X could not authenticate you (code 32): \(trimmed(message)). The signature did not verify: check the consumer key and secret and the access token and secret (a stray space counts), and that you sign the URL you send to."
    case .unauthorized(let message):
      return
        "X refused the request (HTTP 401, no code): \(trimmed(message)). Either the signature did not verify — check the consumer key and secret and the access token and secret (a stray space counts), and that you sign the URL you send to — or the access token was revoked or expired: log in again."
    case .invalidOrExpiredToken(let message):
      return "The access token was refused (code 89): \(trimmed(message)). It was revoked or belongs to another app: log in again."
    case .rateLimited(let reset, _):
      guard let reset else { return "Rate limit exceeded (HTTP 429). Wait a while before retrying." }
      let seconds = Int(max(0, reset.timeIntervalSinceNow).rounded(.up))
      return "Rate limit exceeded (HTTP 429); the limit resets at \(RFC3339.string(from: reset)), in \(seconds) s."
    case .timestampOutOfBounds(let skew):
      let measured = skew.map { String(format: " X's clock is %+.0f s from this computer's.", $0) } ?? ""
      return "X refused the request's timestamp (code 135).\(measured) Set this computer's clock right (enable NTP) and try again."
    case .badAuthenticationData(let message):
      return
        "X found no usable authentication in the request (code 215): \(trimmed(message)). Give the consumer key and secret and the access token and secret."
    case .accessLevel(let message):
      return
        "Your app's access level does not include this endpoint (code 453): \(trimmed(message)). Use an endpoint of your tier (the v2 ones, with --api v2) or upgrade the app's access."
    case .enterpriseOnly(let endpoint, let reason, let message):
      return
        "X sells \(endpoint) to its Enterprise tier only, not to the self-serve (pay-per-use) tiers: \(reason). X answered HTTP 403: \(trimmed(message)). Retrying does not help; Enterprise access is sold by X's sales team (https://docs.x.com/forms/enterprise-api-interest)."
    case .clientNotEnrolled(let message):
      return "The app is not attached to a Project (client-not-enrolled): \(trimmed(message)). Attach it in the developer portal."
    case .creditsDepleted(let message):
      return
        "The account has no credits or has reached its usage cap: \(message) Add credits (or raise the spending limit) in X's developer console, https://console.x.com; waiting does not help."
    case .notFound(let message):
      return "Not found: \(message)"
    case .duplicate(let message):
      return "X refused a duplicate: \(message)"
    case .api(let status, let code, let message, let attempts):
      return "X answered HTTP \(status)\(code.map { " (code \($0))" } ?? "")\(Self.after(attempts)): \(message)"
    case .unexpectedResponse(let status, let excerpt, let attempts):
      return
        "X answered HTTP \(status)\(Self.after(attempts)) with something that is not the API's JSON, so a proxy, a captive portal or an outage may be in the way: \(excerpt)"
    case .network(let error):
      return error.description
    case .invalidMedia(let message):
      return "Not uploaded: \(message)."
    case .mediaProcessingFailed(let message):
      return "\(message). Check the file plays and meets X's requirements (x-api/media/quickstart/best-practices.mdx)."
    case .streamRulesRefused(let problems):
      return "X refused \(problems.count == 1 ? "the rule" : "\(problems.count) rules"): " + problems.map(\.description).joined(separator: "; ")
    }
  }

  static func after(_ attempts: Int) -> String { attempts > 1 ? " on each of \(attempts) attempts" : "" }

  /// How many times the request was sent: more than 1 when it kept failing after retries.
  public var attempts: Int {
    switch self {
    case .api(_, _, _, let attempts), .unexpectedResponse(_, _, let attempts): return attempts
    case .network(let error): return error.attempts
    default: return 1
    }
  }

  /// The rate-limit state the failed response carried, if any.
  public var rateLimit: RateLimit? {
    if case .rateLimited(_, let limit) = self { return limit }
    return nil
  }

  /// Why an ``XBudgetBehavior`` held the request back, when it did: nothing was sent, and
  /// nothing was spent on it.
  public var budget: XBudgetError? {
    if case .network(.rejected(_, let underlying)) = self { return underlying as? XBudgetError }
    return nil
  }
}

extension XError {
  /// Reads X's error out of a failed exchange (for requests sent outside `XClient`).
  public init(_ error: NetworkError, now: Date = Date()) {
    switch error {
    case .httpStatus(let failure) where failure.lostCredentialsInRedirect:
      // The answer judges a request that went, by a redirect, to another origin without its
      // credentials: the redirect is the news, not X's words about authentication.
      self = .network(error)
    case .httpStatus(let failure):
      self = XError(failure, now: now)
    case .decoding(let failure):
      self = .unexpectedResponse(status: 200, excerpt: failure.description)
    default:
      self = .network(error)
    }
  }

  /// Whether the answer is one of X's billing refusals, which no wait lifts: a 429 whose
  /// problem type is `usage-capped` (the monthly cap), or a 402 or a `credits` problem (no
  /// credits left).
  static func isBillingRefusal(_ failure: HTTPStatusFailure) -> Bool {
    let body = XErrorBody(failure.body)
    return failure.statusCode == 402 || (failure.statusCode == 429 && isUsageCapped(body)) || isOutOfCredits(body)
  }

  private static func isUsageCapped(_ body: XErrorBody) -> Bool { body.type?.hasSuffix("usage-capped") == true }

  private static func isOutOfCredits(_ body: XErrorBody) -> Bool { body.type?.hasSuffix("/credits") == true }

  init(_ failure: HTTPStatusFailure, now: Date) {
    let status = failure.statusCode
    let body = XErrorBody(failure.body)
    let message = body.message ?? "no explanation given"
    if status == 429 && Self.isUsageCapped(body) {
      self = .creditsDepleted(message: message)
      return
    }
    if status == 429 || body.codes.contains(88) {
      let reset = failure.rateLimit?.reset ?? failure.retryAfter.map { now.addingTimeInterval($0) }
      self = .rateLimited(reset: reset, rateLimit: failure.rateLimit)
      return
    }
    switch body.codes.first {
    case 32:
      self = .couldNotAuthenticate(message: message)
      return
    case 89:
      self = .invalidOrExpiredToken(message: message)
      return
    case 135:
      let serverDate = failure.headers["Date"].flatMap(HTTPDate.date(from:))
      self = .timestampOutOfBounds(skew: serverDate.map { $0.timeIntervalSince(now) })
      return
    case 215:
      self = .badAuthenticationData(message: message)
      return
    case 453:
      self = .accessLevel(message: message)
      return
    case 34, 144:
      self = .notFound(message: message)
      return
    case 187:
      self = .duplicate(message: message)
      return
    default: break
    }
    if status == 403, let row = Self.row(of: failure.requestLine), case .enterprise(let reason) = row.access {
      // X's answer is a client-forbidden problem ("Appropriate Level of API Access") or a bare
      // Forbidden: either way, the row says why, and that the app's project is not the matter.
      self = .enterpriseOnly(endpoint: row.description, reason: reason, message: message)
      return
    }
    if body.reason == "client-not-enrolled" {
      self = .clientNotEnrolled(message: message)
      return
    }
    if status == 402 || Self.isOutOfCredits(body) {
      self = .creditsDepleted(message: message)
      return
    }
    if body.type?.hasSuffix("resource-not-found") == true {
      self = .notFound(message: message)
      return
    }
    if message.localizedCaseInsensitiveContains("duplicate content") {
      self = .duplicate(message: message)
      return
    }
    if status == 401 && body.isJSON {
      self = .unauthorized(message: message)
      return
    }
    if !body.isJSON {
      let excerpt = Redaction.excerpt(of: failure.body) ?? "an empty body"
      self =
        status == 404
        ? .notFound(message: "\(failure.requestLine) does not exist (HTTP 404)")
        : .unexpectedResponse(status: status, excerpt: excerpt, attempts: failure.attempts)
      return
    }
    self = .api(status: status, code: body.codes.first, message: message, attempts: failure.attempts)
  }
}

extension XError {
  /// The row a request line (`POST https://api.x.com/2/users/42/likes`) was sent to, or `nil`.
  static func row(of requestLine: String) -> XEndpoint? {
    let parts = requestLine.split(separator: " ", maxSplits: 1)
    guard parts.count == 2 else { return nil }
    let target = String(parts[1])
    let path = URL(string: target)?.path ?? String(target.prefix { $0 != "?" })
    return XEndpoint.match(HTTPMethod(rawValue: String(parts[0])), path: path)?.endpoint
  }
}

/// The fields of a v1.1 (`errors[{code,message}]`) or v2 (problem) error body.
struct XErrorBody {
  var codes: [Int] = []
  var message: String?
  var type: String?
  var reason: String?
  var isJSON = false

  init(_ data: Data) {
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return }
    isJSON = true
    type = object["type"] as? String
    reason = object["reason"] as? String
    var messages: [String] = []
    if let errors = object["errors"] as? [[String: Any]] {
      for error in errors {
        if let code = error["code"] as? Int { codes.append(code) }
        if let text = error["message"] as? String ?? error["detail"] as? String { messages.append(text) }
      }
    }
    if let detail = object["detail"] as? String {
      messages.insert(detail, at: 0)
    } else if let title = object["title"] as? String {
      messages.insert(title, at: 0)
    }
    message = messages.isEmpty ? nil : messages.joined(separator: "; ")
  }
}
