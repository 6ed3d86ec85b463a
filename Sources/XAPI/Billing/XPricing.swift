import Foundation

/// X's price list for pay-per-use, as data: what a resource read costs, what a request costs,
/// the owned-read price, and the monthly cap, with the date they took effect.
///
/// X bills per resource returned (a post, a user), once per resource per UTC day, and per
/// request for writes and counts. The values here are X's published prices
/// (`x-api/getting-started/pricing.mdx`, read 2026-08-22); when X changes them, a user puts a
/// `pricing.json` in the config directory and ``load(contentsOf:)`` lays it over these. Where
/// X is silent, this package assumes (and ``XBilling`` says where):
/// - expanded `includes` (authors, referenced posts, media) are not billed: only the items of
///   `data` are;
/// - an owned read (a post or follower of the authenticated user, where that user owns the
///   app) is the user's own timeline, mentions, likes, bookmarks, followers and following;
/// - deleting a post costs an interaction delete; a v1.1 read costs as the v2 read of the same
///   resource; `GET /2/usage/tweets`, stream rules and the OAuth endpoints are free.
///
/// ```swift
/// var pricing = XPricing.published
/// pricing.reads[.post]              // $0.005
/// pricing.price(of: .post, owned: true)  // $0.001
/// ```
public struct XPricing: Sendable, Hashable, Codable {
  /// When these prices took effect (`YYYY-MM-DD`).
  public var effective: String
  /// Where they come from.
  public var source: String
  /// The price of each resource read, per resource.
  public var reads: [XResourceKind: USD]
  /// The price of an owned read, per resource.
  public var ownedRead: USD
  /// The price of each request billed per request.
  public var requests: [XRequestKind: USD]
  /// Post reads allowed per billing cycle before X refuses with 429 `usage-capped`.
  public var monthlyPostReadCap: Int

  /// A price list.
  public init(
    effective: String, source: String, reads: [XResourceKind: USD], ownedRead: USD, requests: [XRequestKind: USD], monthlyPostReadCap: Int
  ) {
    self.effective = effective
    self.source = source
    self.reads = reads
    self.ownedRead = ownedRead
    self.requests = requests
    self.monthlyPostReadCap = monthlyPostReadCap
  }

  /// X's published pay-per-use prices (in effect since 2026-02-06, the page read 2026-08-22).
  public static let published = XPricing(
    effective: "2026-02-06",
    source: "https://docs.x.com/x-api/getting-started/pricing",
    reads: [
      .post: USD(micros: 5_000), .user: USD(micros: 10_000), .follow: USD(micros: 10_000), .dmEvent: USD(micros: 10_000),
      .list: USD(micros: 5_000), .space: USD(micros: 5_000), .community: USD(micros: 5_000), .note: USD(micros: 5_000),
      .like: USD(micros: 1_000), .mute: USD(micros: 1_000), .block: USD(micros: 1_000),
    ],
    ownedRead: USD(micros: 1_000),
    requests: [
      .postCreate: USD(micros: 15_000), .postCreateWithURL: USD(micros: 200_000), .summonedReply: USD(micros: 10_000),
      .interaction: USD(micros: 15_000), .interactionDelete: USD(micros: 10_000), .bookmark: USD(micros: 5_000),
      .mediaMetadata: USD(micros: 5_000), .countsRecent: USD(micros: 5_000), .countsAll: USD(micros: 10_000), .trends: USD(micros: 10_000),
    ],
    monthlyPostReadCap: 3_000_000)

  /// The price of reading one resource of `kind`; an owned read where `owned`.
  public func price(of kind: XResourceKind, owned: Bool = false) -> USD {
    owned ? ownedRead : reads[kind] ?? .zero
  }

  /// The price of one request of `kind`.
  public func price(of kind: XRequestKind) -> USD { requests[kind] ?? .zero }

  /// What creating a post with `text` costs: the URL price when the text holds anything X may
  /// link (a URL, or a bare domain such as `example.com`: the safe side of a budget), else the
  /// post price.
  ///
  /// ```swift
  /// XPricing.published.priceOfPost("hello")              // $0.015
  /// XPricing.published.priceOfPost("read swift.org")     // $0.20
  /// ```
  public func priceOfPost(_ text: String) -> USD {
    price(of: XBilling.containsURL(text: text) ? XRequestKind.postCreateWithURL : .postCreate)
  }

  /// The largest price file read (64 KiB: X's whole list is under 2 KiB); a larger one is
  /// refused unread.
  public static let maxFileBytes = 65_536

  /// A price file read over these prices: every key the file has replaces this list's, the
  /// others stay (a file may hold only what X changed). The file is JSON in this type's shape,
  /// amounts as strings (`"0.005"`), and must say when its prices took effect:
  ///
  /// ```json
  /// {"effective": "2027-01-01", "reads": {"post": "0.006"}}
  /// ```
  ///
  /// - Throws: ``XPricingError`` naming the file and what is wrong with it.
  public func load(contentsOf url: URL) throws(XPricingError) -> XPricing {
    let data: Data
    do {
      let handle = try FileHandle(forReadingFrom: url)
      defer { try? handle.close() }
      data = try handle.read(upToCount: Self.maxFileBytes + 1) ?? Data()
    } catch {
      throw .unreadable(path: url.path, reason: error.localizedDescription)
    }
    guard data.count <= Self.maxFileBytes else {
      throw .invalid(path: url.path, reason: "it is larger than \(Self.maxFileBytes) bytes, which no price list needs")
    }
    let file: PriceFile
    do { file = try JSONDecoder().decode(PriceFile.self, from: data) } catch {
      throw .invalid(path: url.path, reason: Self.reason(error))
    }
    var merged = self
    merged.effective = file.effective
    merged.source = file.source ?? url.path
    merged.reads.merge(file.reads ?? [:]) { $1 }
    merged.ownedRead = file.ownedRead ?? ownedRead
    merged.requests.merge(file.requests ?? [:]) { $1 }
    merged.monthlyPostReadCap = file.monthlyPostReadCap ?? monthlyPostReadCap
    return merged
  }

  private struct PriceFile: Decodable {
    let effective: String
    let source: String?
    let reads: [XResourceKind: USD]?
    let ownedRead: USD?
    let requests: [XRequestKind: USD]?
    let monthlyPostReadCap: Int?
  }

  private static func reason(_ error: any Error) -> String {
    switch error as? DecodingError {
    case .keyNotFound(let key, _): return "it has no \"\(key.stringValue)\" (the date its prices took effect, YYYY-MM-DD)"
    case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
      let path = context.codingPath.map(\.stringValue).joined(separator: ".")
      return (path.isEmpty ? "" : "at \(path): ") + context.debugDescription
    default: return "\(error)"
    }
  }
}

/// Why a price file could not be used.
public enum XPricingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file could not be read.
  case unreadable(path: String, reason: String)
  /// The file is not a price list.
  case invalid(path: String, reason: String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "cannot read the price file \(path): \(reason)"
    case .invalid(let path, let reason):
      "the price file \(path) is not a price list: \(reason). Write it as JSON, for example {\"effective\": \"2027-01-01\", \"reads\": {\"post\": \"0.006\"}}"
    }
  }
}
