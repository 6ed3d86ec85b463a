import Foundation
import NetworkClient

/// One X operation, declared once: its method and path template, the authentications X
/// accepts, its page sizes, what X bills for it and whether X sells it to self-serve tiers.
///
/// Before these rows an endpoint was written in five places (the typed method, the billing
/// table that parsed back the URL the method built, a test list, the sandbox's route, the
/// command); now the typed methods build their paths from a row, ``XBilling`` looks the row
/// up by method and path template, `tweets api --list` prints the rows, and the tests compare
/// the rows with X's specification and with the sandbox's routes.
///
/// The rows of X's OpenAPI specification (``specified``) are written by `.ci/x-endpoints`
/// from the vendored specification; the few operations the specification lacks (v1.1 and
/// OAuth, ``classic``) are written by hand.
///
/// ```swift
/// XEndpoint.getUsersPosts.path                 // "/2/users/{id}/tweets"
/// XEndpoint.getUsersPosts.filled("42")         // "2/users/42/tweets"
/// XEndpoint.match(.get, path: "/2/users/42/tweets")?.endpoint == .getUsersPosts  // true
/// ```
public struct XEndpoint: Sendable, Hashable, CustomStringConvertible {
  /// The HTTP method.
  public let method: HTTPMethod
  /// The path template as X's specification writes it (`/2/users/{id}/tweets`).
  public let path: String
  /// X's `operationId`, or a name of the package's for an operation outside the specification.
  public let operation: String
  /// The authentications X accepts, from the specification's `security`; empty where it
  /// requires none.
  public let authentications: [Authentication]
  /// The smallest and largest `max_results` X accepts (v1.1: `count`), where the operation is
  /// paged that way: what a typed method clamps its page size to.
  public let pageSizes: ClosedRange<Int>?
  /// What X bills for a successful answer.
  public let charge: Charge
  /// Which of X's tiers may call it.
  public let access: Access
  /// Whether the row is an operation of X's specification (``specified``), or one of the
  /// package's own (``classic``).
  public let inSpecification: Bool
  /// The template's segments, a v1.1 segment's `.json` dropped: what ``match(_:path:)``
  /// compares, split once.
  let templateSegments: [String]

  /// An authentication X accepts for an operation (a `security` requirement of the specification).
  public enum Authentication: Sendable, Hashable, CustomStringConvertible {
    /// OAuth 1.0a user context (the specification's `UserToken`).
    case oauth1User
    /// OAuth 2.0 user context with these scopes, sorted (`OAuth2UserToken`).
    case oauth2User(scopes: [String])
    /// App-only, a bearer token (`BearerToken`).
    case appOnly

    /// `oauth1-user`, `oauth2-user(tweet.read users.read)`, `app-only`.
    public var description: String {
      switch self {
      case .oauth1User: "oauth1-user"
      case .oauth2User(let scopes): scopes.isEmpty ? "oauth2-user" : "oauth2-user(\(scopes.joined(separator: " ")))"
      case .appOnly: "app-only"
      }
    }
  }

  /// How many resources a billed read may return at most: what a budget must assume before
  /// the answer says.
  public enum Count: Sendable, Hashable {
    /// One (a lookup by id).
    case one
    /// A page: the request's `max_results` (v1.1 `count`), at most this many, this many when
    /// it sends none.
    case page(Int)
    /// One per value listed in these query parameters (comma-separated ids), summed; the
    /// second value when none is given.
    case listed([String], otherwise: Int)
  }

  /// What X bills for an operation: the declaration that ``XBilling`` turns into a price for
  /// one request, and that the sandbox's routes are compared with.
  public enum Charge: Sendable, Hashable, CustomStringConvertible {
    /// Not billed, and why.
    case free(because: String)
    /// Each resource of `data`, once per UTC day; with `ownable`, an owned read when the path's
    /// first `{id}` is the authenticated user who owns the app.
    case resources(XResourceKind, ownable: Bool = false, count: Count)
    /// Once per request.
    case request(XRequestKind)
    /// Creating a post: `post_create`, or `post_create_with_url` when its text holds a link.
    case postCreate
    /// A stream: the request is not billed; each resource it delivers is.
    case streamed(XResourceKind)
    /// X's price list names no price: a budget refuses it under a limit rather than guess.
    case unpriced(because: String)

    /// `post (owned) x100`, `counts_all`, `free`, `unpriced`.
    public var description: String {
      switch self {
      case .free: "free"
      case .resources(let kind, let ownable, let count):
        kind.rawValue + (ownable ? " (owned)" : "")
          + {
            switch count {
            case .one: " x1"
            case .page(let largest): " x\(largest)"
            case .listed(let names, let otherwise): " per \(names.joined(separator: "+")) (\(otherwise))"
            }
          }()
      case .request(let kind): kind.rawValue
      case .postCreate: "post_create or post_create_with_url"
      case .streamed(let kind): "\(kind.rawValue) per delivered"
      case .unpriced: "unpriced"
      }
    }

    /// Why it is free or unpriced; `nil` for a priced charge.
    public var reason: String? {
      switch self {
      case .free(let reason), .unpriced(let reason): reason
      default: nil
      }
    }
  }

  /// Which of X's tiers may call an operation.
  public enum Access: Sendable, Hashable {
    /// Self-serve tiers (pay-per-use) may.
    case selfServe
    /// Only Enterprise, and why.
    case enterprise(because: String)
    /// Self-serve, without this request option (a body field or parameter), which only
    /// Enterprise may send.
    case enterpriseWith(String, because: String)
  }

  /// A row.
  public init(
    _ method: HTTPMethod, _ path: String, operation: String, authentications: [Authentication], pageSizes: ClosedRange<Int>? = nil,
    charge: Charge, access: Access = .selfServe, inSpecification: Bool = true
  ) {
    self.method = method
    self.path = path
    self.operation = operation
    self.authentications = authentications
    self.pageSizes = pageSizes
    self.charge = charge
    self.access = access
    self.inSpecification = inSpecification
    templateSegments = path.split(separator: "/").map { Self.withoutJSON($0) }
  }

  /// `GET /2/users/{id}/tweets`.
  public var description: String { "\(method) \(path)" }

  /// Every row: the specification's operations, then the classic ones.
  public static let all: [XEndpoint] = specified + classic

  /// The path of a request to this operation, without the leading `/` (as `Request` takes
  /// it): each `{name}` of the template replaced, in order, by one of `values`, encoded so
  /// that it stays one segment.
  ///
  /// ```swift
  /// XEndpoint.getUsersPosts.filled("42")  // "2/users/42/tweets"
  /// ```
  public func filled(_ values: String...) -> String { filled(values) }

  /// ``filled(_:)-(String...)`` with the values as an array.
  public func filled(_ values: [String]) -> String {
    var values = values.makeIterator()
    let segments = path.split(separator: "/").map { segment -> String in
      guard let open = segment.firstIndex(of: "{"), let close = segment.firstIndex(of: "}"), open < close else { return String(segment) }
      guard let value = values.next() else { preconditionFailure("\(self) needs a value for \(segment)") }
      return String(segment[..<open]) + PathSegment(value).description + String(segment[segment.index(after: close)...])
    }
    precondition(values.next() == nil, "\(self) was given more values than it has parameters")
    return segments.joined(separator: "/")
  }

  /// The row a request's method and URL path are for, and the values of its `{…}` segments in
  /// order: the most specific row whose template matches (`/2/users/me` before
  /// `/2/users/{id}`), whatever prefix a base URL puts before the API version, with or
  /// without a v1.1 path's `.json`. `nil` for a path no row has.
  public static func match(_ method: HTTPMethod, path: String) -> (endpoint: XEndpoint, captures: [String])? {
    let segments = apiSegments(path)
    guard !segments.isEmpty else { return nil }
    var best: (endpoint: XEndpoint, captures: [String], literals: Int)?
    for endpoint in all where endpoint.method == method {
      let template = endpoint.templateSegments
      guard template.count == segments.count else { continue }
      var captures: [String] = []
      var literals = 0
      var matches = true
      for (piece, segment) in zip(template, segments) {
        if piece.hasPrefix("{") {
          captures.append(segment)
        } else if piece == segment {
          literals += 1
        } else {
          matches = false
          break
        }
      }
      if matches, literals > best?.literals ?? -1 { best = (endpoint, captures, literals) }
    }
    return best.map { ($0.endpoint, $0.captures) }
  }

  /// A request path's segments from its API version on (`2`, `1.1`, `oauth`, `oauth2`),
  /// each without a trailing `.json`; empty for a path with no API version.
  static func apiSegments(_ path: String) -> [String] {
    let segments = path.split(separator: "/")
    guard let start = segments.firstIndex(where: { $0 == "2" || $0 == "1.1" || $0 == "oauth" || $0 == "oauth2" }) else { return [] }
    return segments[start...].map { withoutJSON($0) }
  }

  private static func withoutJSON(_ segment: Substring) -> String {
    segment.hasSuffix(".json") && segment.count > 5 ? String(segment.dropLast(5)) : String(segment)
  }
}
