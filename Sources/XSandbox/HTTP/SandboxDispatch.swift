import Foundation
import NetworkClient

extension XSandbox {
  /// Answers one request that is not the control API's: a scripted redirect at the edge, the
  /// OAuth 2.0 and PIN-flow endpoints, then authentication (``authenticate(_:url:family:trace:)``),
  /// the route (``SandboxRoute/find(method:segments:)``), its parameters and rate limit, X's
  /// billing (``SandboxBillable``: a refusal before, the charge after) and the handler under the
  /// state's lock, each answer passing through ``deliver(scriptedFor:family:route:identity:now:produce:)``.
  func respond(to request: HTTPRequest, rawPath: String, now: Int64, trace: inout Trace) async -> (SandboxResponse, SandboxDelivery) {
    let method = request.method.rawValue
    if let edge = state.withLock({ $0.control.popAction(for: rawPath, redirectsOnly: true) }), let target = edge.redirect {
      let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
      let location = target + (edge.keepQuery && !query.isEmpty ? "?" + query : "")
      return (
        scripted("redirect", SandboxResponse(status: edge.status ?? 307, contentType: "text/plain", body: Data(), headers: [("Location", location)])),
        .whole
      )
    }
    if Self.isOAuth2Path(rawPath) {
      return await deliver(scriptedFor: rawPath, family: .v2, route: nil, identity: "", now: now) { oauth2(request, path: rawPath, now: now) }
    }
    guard let url = SandboxURL(request.url) else { return (.html(404, XBodies.notFoundPage), .whole) }
    let family: SandboxFamily
    if url.path.hasPrefix("/2/") {
      family = .v2
    } else if url.path.hasPrefix("/1.1/") {
      family = .v1
    } else if url.path == "/oauth/request_token" || url.path == "/oauth/access_token" {
      family = .oauth
    } else {
      if method == "GET" || method == "HEAD", url.path == "/oauth/authorize" || url.path == "/oauth/authenticate" {
        return await deliver(scriptedFor: rawPath, family: .oauth, route: nil, identity: "", now: now) {
          authorizePage(token: url.query.firstValues["oauth_token"] ?? "")
        }
      }
      return (.html(404, XBodies.notFoundPage), .whole)
    }

    let caller: SandboxCaller
    switch await authenticate(request, url: url, family: family, trace: &trace) {
    case .caller(let who): caller = who
    case .denied(let response): return (response, .whole)
    }
    if family == .oauth {
      return await deliver(scriptedFor: rawPath, family: family, route: nil, identity: caller.identity, now: now) {
        oauthEndpoint(method: method, path: url.path, caller: caller)
      }
    }

    guard let (route, captures) = SandboxRoute.find(method: method, segments: url.segments) else {
      return (family == .v1 ? .v1(404, XBodies.pageDoesNotExist) : .html(404, XBodies.notFoundPage), .whole)
    }
    if caller.kind == .bearer && !route.bearerOK {
      state.withLock { $0.reject("app_only_forbidden") }
      if family == .v1 && method != "GET" {
        return (.v1(403, XBodies.v1Errors(220, "Your credentials do not allow access to this resource.")), .whole)
      }
      return (.v2(403, XBodies.appOnlyForbidden), .whole)
    }
    if caller.kind != .bearer && route.appOnly {
      state.withLock { $0.reject("user_context_forbidden") }
      return (.v2(403, XBodies.userContextForbidden), .whole)
    }
    if caller.kind == .oauth1 && !route.oauth1OK {
      state.withLock { $0.reject("oauth1_forbidden") }
      return (.v2(403, XBodies.oauth1Forbidden), .whole)
    }
    if caller.kind == .oauth2 && !route.oauth2OK {
      state.withLock { $0.reject("oauth2_forbidden") }
      return (.v2(403, XBodies.oauth2Forbidden), .whole)
    }
    if caller.kind == .oauth2, let granted = caller.scopes, !route.scopes.allSatisfy(granted.contains) {
      state.withLock { $0.reject("oauth2_scope_missing") }
      return (.v2(403, XBodies.forbidden), .whole)
    }
    let context = RouteContext(
      method: method, params: url.query, query: url.query.firstValues, body: request.body,
      contentType: request.headers["Content-Type"], caller: caller, family: family, now: now, origin: Self.origin(of: request.url),
      captures: captures, offsite: offsite)
    return await deliver(scriptedFor: rawPath, family: family, route: route, identity: caller.identity, now: now) {
      if let allowed = route.allowed {
        for (name, value) in url.query where !name.hasPrefix("oauth_") && !allowed.contains(name) {
          return .v2(400, XBodies.invalidRequest(name, [value], "The query parameter [\(name)] is not one of [\(allowed.joined(separator: ","))]"))
        }
      }
      return state.withLock { state in
        var headers: [(String, String)] = []
        if let limit = route.limit {
          let (allowed, limitHeaders) = state.takeRateLimit(route.name, limit: limit, identity: caller.identity, path: rawPath, now: now)
          guard allowed else {
            return family == .v2
              ? .v2(429, XBodies.tooManyRequests, headers: limitHeaders) : .v1(429, XBodies.rateLimitExceeded, headers: limitHeaders)
          }
          headers = limitHeaders
        }
        // X's billing, the same for every route: refused before, charged after (a 2xx only).
        if let refusal = state.billingRefusal(route.billing) { return refusal.response(headers: headers) }
        var response = route.handler(&state, context)
        state.bill(route.billing, answer: response, context: context)
        response.headers += headers
        return response
      }
    }
  }
}
