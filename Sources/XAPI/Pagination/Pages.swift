import Foundation
import NetworkClient

/// One page of a timeline, a search or a list of users.
public struct Page<Item: Sendable>: Sendable {
  /// The page's items, in X's order (tweets newest first); empty when X returned none. On the
  /// page that reaches the limit, only the items within it.
  public let items: [Item]
  /// Where the next page starts; `nil` on the last page.
  public let next: PageCursor?
  /// Problems X reported alongside the data (v2 partial errors).
  public let partialErrors: [XProblem]
  /// The rate-limit state after this page.
  public let rateLimit: RateLimit?
  /// The response body exactly as X sent it (v2: `data`, `includes`, `meta`, `errors`; v1.1: the
  /// array of statuses), for archiving X's own JSON; the whole page even when `limit` delivers
  /// only part of its items.
  public let body: Data

  /// A page from its parts; the endpoints build their own.
  public init(items: [Item], next: PageCursor?, partialErrors: [XProblem] = [], rateLimit: RateLimit? = nil, body: Data = Data()) {
    self.items = items
    self.next = next
    self.partialErrors = partialErrors
    self.rateLimit = rateLimit
    self.body = body
  }
}

/// One page of a timeline or a search.
public typealias TweetPage = Page<Tweet>
/// The pages of a timeline or a search.
public typealias TweetPages = Pages<Tweet>
/// The pages of a list of users (followers, following).
public typealias UserPages = Pages<XUser>

extension Page where Item == Tweet {
  /// The page's tweets (its ``Page/items``).
  public var tweets: [Tweet] { items }
}

extension Page where Item == XUser {
  /// The page's users (its ``Page/items``).
  public var users: [XUser] { items }
}

/// How the API finds the next page.
public enum PageCursor: Sendable, Hashable {
  /// v2: `meta.next_token`, sent back as `pagination_token` (timelines) or `next_token` (search).
  case token(String)
  /// v1.1: `max_id`, the lowest id seen minus one.
  case maxID(String)
}

/// The pages of a timeline, a search or a list of users, fetched one at a time as you iterate,
/// until the API has no more or `limit` items have been delivered.
///
/// ```swift
/// for try await page in client.v2.userTweets(userID: "12", limit: 300) {
///   print(page.tweets.count, page.rateLimit?.remaining ?? -1)
/// }
/// for try await tweet in client.v1.userTimeline(screenName: "jack").tweets(limit: 50) { ... }
/// ```
public struct Pages<Item: Sendable>: AsyncSequence, Sendable {
  public typealias Element = Page<Item>
  /// Fetches one page: given the cursor of the previous page (`nil` for the first), returns the page, whose
  /// ``Page/next`` says where the one after starts. The endpoints supply it.
  public typealias Fetch = @Sendable (PageCursor?) async throws(XError) -> Page<Item>
  /// Fetches one page for a cursor, told how many items are still wanted (`nil`: all there
  /// are), so that an endpoint asks for no more than that: X bills every item it returns.
  typealias SizedFetch = @Sendable (PageCursor?, _ wanted: Int?) async throws(XError) -> Page<Item>

  /// The most items to deliver in all; `nil` for every page there is.
  public let limit: Int?
  /// Where the first page starts: `nil` for the beginning, or a cursor a previous run saved.
  public let start: PageCursor?
  let fetch: SizedFetch

  /// Pages fetched on demand, until a page has no next cursor, repeats the cursor, or is empty, or `limit` items are
  /// delivered.
  ///
  /// - Parameters:
  ///   - limit: the most items to deliver in all (the page that reaches it is trimmed); `nil` for every page there is.
  ///   - fetch: fetches one page for a cursor; each iterator calls it once per page, one call at a time.
  public init(limit: Int?, fetch: @escaping Fetch) {
    self.init(limit: limit, start: nil) { cursor, _ throws(XError) in try await fetch(cursor) }
  }

  /// Pages whose fetch asks for no more items than are still wanted (the endpoints' own).
  init(limit: Int?, sizedFetch: @escaping SizedFetch) {
    self.init(limit: limit, start: nil, fetch: sizedFetch)
  }

  private init(limit: Int?, start: PageCursor?, fetch: @escaping SizedFetch) {
    self.limit = limit
    self.start = start
    self.fetch = fetch
  }

  /// The same pages from `cursor` on (a ``Page/next`` a previous run saved), delivering at most
  /// `limit` items: how `tweets --resume` continues an interrupted fetch.
  ///
  /// ```swift
  /// let rest = client.v2.userTweets(userID: "12").resuming(from: .token(savedToken), limit: nil)
  /// ```
  public func resuming(from cursor: PageCursor?, limit: Int?) -> Pages {
    Pages(limit: limit, start: cursor, fetch: fetch)
  }

  public func makeAsyncIterator() -> Iterator { Iterator(pages: self, cursor: start) }

  /// The items of every page, one at a time.
  public func items(limit: Int? = nil) -> Items {
    Items(pages: Pages(limit: [limit, self.limit].compactMap { $0 }.min(), start: start, fetch: fetch))
  }

  /// Fetches one page per call to `next()`, following each page's cursor, and throws the ``XError`` of a failed fetch.
  public struct Iterator: AsyncIteratorProtocol {
    let pages: Pages
    var cursor: PageCursor?
    var delivered = 0
    var emptyInARow = 0
    /// Whether the last page returned was the last one: `next()` will return `nil`. A caller
    /// that records progress (`tweets --output`) marks the end with that page.
    public private(set) var isFinished = false

    static var emptyPagesBeforeGivingUp: Int { 5 }

    public mutating func next() async throws -> Page<Item>? {
      guard !isFinished else { return nil }
      if let limit = pages.limit, delivered >= limit {
        isFinished = true
        return nil
      }
      var page = try await pages.fetch(cursor, pages.limit.map { $0 - delivered })
      if let limit = pages.limit, delivered + page.items.count >= limit {
        page = Page(
          items: Array(page.items.prefix(limit - delivered)), next: nil, partialErrors: page.partialErrors, rateLimit: page.rateLimit,
          body: page.body)
      }
      delivered += page.items.count
      // Stop on the last page and on a cursor that no longer advances. An empty page with a
      // new cursor is not the end (X's search can answer one inside a time window), but five
      // in a row are taken for one.
      emptyInARow = page.items.isEmpty ? emptyInARow + 1 : 0
      if page.next == nil || page.next == cursor || emptyInARow >= Self.emptyPagesBeforeGivingUp { isFinished = true }
      if let limit = pages.limit, delivered >= limit { isFinished = true }
      cursor = page.next
      return page
    }
  }

  /// Items, flattened from pages.
  public struct Items: AsyncSequence, Sendable {
    public typealias Element = Item
    let pages: Pages

    public func makeAsyncIterator() -> Iterator { Iterator(pages: pages.makeAsyncIterator()) }

    /// Hands out the items of each page in order, fetching the next page only when the previous one is used up.
    public struct Iterator: AsyncIteratorProtocol {
      var pages: Pages.Iterator
      var buffer: [Item] = []

      public mutating func next() async throws -> Item? {
        while buffer.isEmpty {
          guard let page = try await pages.next() else { return nil }
          buffer = page.items.reversed()
        }
        return buffer.popLast()
      }
    }
  }
}

extension Pages where Item == Tweet {
  /// The tweets of every page, one at a time.
  public func tweets(limit: Int? = nil) -> Items { items(limit: limit) }
}
