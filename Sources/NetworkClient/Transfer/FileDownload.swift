import Foundation

/// A plain download of one file to disk, for URLs that are not an API's: a CDN's photo or video,
/// a presigned storage URL. It sends no credential at all (only `User-Agent`, `Accept` and
/// `Accept-Encoding: identity`), on the first request and on every redirect, which it follows
/// by ``RedirectPolicy`` (at most five hops by default, never from https to http). The body
/// streams to a partial file next to the destination (``partialURL(for:)``), which is renamed
/// to the destination only once complete: a process killed mid-file leaves no half file under
/// the final name.
///
/// Its limits, each an error of its own (``FileDownloadError``): a file at most
/// ``Limits/maxBytes`` (refused on its `Content-Length` before reading, or as it grows), a body
/// shorter than its `Content-Length` (``FileDownloadError/truncated(expected:received:)``), and
/// a silence of ``Limits/idleTimeout`` between two chunks (the transport's timeout). The
/// caller may refuse a URL before it is requested, the first or a redirect's target (`screen`:
/// a host it will not reach), and stop a download from `eachChunk` (a budget over several
/// files); either is ``FileDownloadError/refused(reason:)``.
///
/// It asks for the file's own bytes (`Accept-Encoding: identity`) over ``DefaultTransport``,
/// which then decodes nothing: a server that compresses anyway gets its compressed bytes
/// written, never inflated (a 65 KB gzip answer would otherwise become 64 MB on disk).
///
/// ```swift
/// let download = FileDownload()
/// let result = try await download.download(from: URL(string: "https://video.twimg.com/v.mp4")!, to: URL(fileURLWithPath: "media/7_1.mp4"))
/// print(result.bytes)
/// ```
public struct FileDownload: Sendable {
  /// What one download may cost.
  public struct Limits: Sendable {
    /// The largest file taken, in bytes; default ``defaultMaxBytes``.
    public var maxBytes: Int64
    /// The longest silence between two chunks, in seconds; default ``defaultIdleTimeout``.
    public var idleTimeout: TimeInterval
    /// 4 GiB: larger than any video X serves (its longest uploads are some 2 GB).
    public static let defaultMaxBytes: Int64 = 4 << 30
    /// 60 s.
    public static let defaultIdleTimeout: TimeInterval = 60

    /// The defaults, or others.
    public init(maxBytes: Int64 = defaultMaxBytes, idleTimeout: TimeInterval = defaultIdleTimeout) {
      self.maxBytes = maxBytes
      self.idleTimeout = idleTimeout
    }
  }

  /// What a finished download was.
  public struct Result: Sendable {
    /// The file's size.
    public let bytes: Int64
    /// The URL the file came from, after the redirects.
    public let finalURL: URL
    /// The redirects followed, in order.
    public let redirections: [Redirection]
  }

  /// The header fields every request carries, and no other.
  public static let userAgent = "NetworkClient-swift file-download"

  private let transport: any HTTPStreamingTransport
  private let limits: Limits
  private let redirects: RedirectPolicy
  private let screen: @Sendable (URL) -> String?

  /// A downloader over `transport` (``DefaultTransport`` by default: libcurl on Linux, which
  /// decodes no content coding the request did not ask for, where FoundationNetworking's
  /// URLSession inflates a gzip body whatever was asked), within `limits`, following redirects
  /// by `redirects` (whose trusted origins do not matter: there is no credential). `screen`
  /// says why a URL is not to be requested (or `nil` to request it); it is asked of the first
  /// URL and of each redirect's target before any request goes there.
  public init(
    transport: any HTTPStreamingTransport = DefaultTransport(), limits: Limits = Limits(), redirects: RedirectPolicy = .default,
    screen: @escaping @Sendable (URL) -> String? = { _ in nil }
  ) {
    self.transport = transport
    self.limits = limits
    self.redirects = redirects
    self.screen = screen
  }

  /// Where the body of a download to `destination` is written until complete:
  /// `DIR/.NAME.part`, in the same directory so that the rename is atomic.
  public static func partialURL(for destination: URL) -> URL {
    destination.deletingLastPathComponent().appendingPathComponent("." + destination.lastPathComponent + ".part")
  }

  /// Downloads `url` to `destination` (replacing a file there once complete), handing each
  /// chunk to `eachChunk` before it is written (a digest, a progress count, a budget): an error
  /// it throws ends the download, the partial file removed.
  public func download(
    from url: URL, to destination: URL, eachChunk: @Sendable (Data) throws(FileDownloadError) -> Void = { _ in }
  ) async throws(FileDownloadError) -> Result {
    if let reason = screen(url) { throw .refused(reason: reason) }
    var hop = HTTPRequest(
      method: .get, url: url, headers: ["User-Agent": Self.userAgent, "Accept": "*/*", "Accept-Encoding": "identity"], isIdempotent: true,
      timeout: limits.idleTimeout)
    while true {
      if Task.isCancelled { throw .network(.cancelled) }
      let response: HTTPStreamingResponse
      do {
        response = try await transport.open(hop)
      } catch {
        throw .network(NetworkClient.networkError(error, request: hop))
      }
      let head = HTTPResponse(statusCode: response.statusCode, headers: response.headers, request: hop)
      let next: HTTPRequest?
      do {
        next = try redirects.next(after: head, to: hop, start: url, credentialed: false)
      } catch {
        response.cancel()
        throw .network(error)
      }
      if var next {
        response.cancel()
        // Nothing to strip but what a caller's transport might add: no credential goes on.
        for name in ["Authorization", "Proxy-Authorization", "Cookie"] { next.headers[name] = nil }
        if let reason = screen(next.url) { throw .refused(reason: reason) }
        hop = next
        continue
      }
      guard head.isSuccess else {
        let body = (try? await response.collect(limit: 65_536)) ?? Data()
        throw .network(
          .httpStatus(HTTPStatusFailure(response: HTTPResponse(statusCode: response.statusCode, headers: response.headers, body: body, request: hop)))
        )
      }
      let bytes = try await save(response, of: hop, to: destination, eachChunk: eachChunk)
      return Result(bytes: bytes, finalURL: hop.url, redirections: hop.redirections)
    }
  }

  /// Writes the body to the partial file, checks its length, and renames it to `destination`.
  private func save(
    _ response: HTTPStreamingResponse, of request: HTTPRequest, to destination: URL, eachChunk: @Sendable (Data) throws(FileDownloadError) -> Void
  )
    async throws(FileDownloadError)
    -> Int64
  {
    // The file's bytes as sent: asked for without a content coding (`identity`), since a body the
    // transport decodes no longer matches its Content-Length. A server that encodes anyway is
    // not held to it.
    let encoded = response.headers["Content-Encoding"].map { $0.lowercased() != "identity" } ?? false
    let announced = encoded ? nil : response.headers["Content-Length"].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
    if let announced, announced > limits.maxBytes {
      response.cancel()
      throw .tooLarge(limit: limits.maxBytes, announced: announced)
    }
    let partial = Self.partialURL(for: destination)
    let fail = { (error: FileDownloadError) -> FileDownloadError in
      response.cancel()
      try? FileManager.default.removeItem(at: partial)
      return error
    }
    guard FileManager.default.createFile(atPath: partial.path, contents: nil), let handle = try? FileHandle(forWritingTo: partial) else {
      throw fail(.file(path: partial.path, reason: "cannot create it"))
    }
    var received: Int64 = 0
    do {
      defer { try? handle.close() }
      do {
        for try await chunk in response.body {
          received += Int64(chunk.count)
          if received > limits.maxBytes { throw FileDownloadError.tooLarge(limit: limits.maxBytes, announced: nil) }
          try eachChunk(chunk)
          try handle.write(contentsOf: chunk)
        }
        try handle.synchronize()
      } catch let error as FileDownloadError {
        throw error
      } catch let error as CocoaError {
        throw FileDownloadError.file(path: partial.path, reason: error.localizedDescription)
      } catch {
        throw FileDownloadError.network(Task.isCancelled ? .cancelled : NetworkClient.networkError(error, request: request))
      }
    } catch {
      throw fail(error as? FileDownloadError ?? .network(.cancelled))
    }
    if let announced, received != announced {
      throw fail(.truncated(expected: announced, received: received))
    }
    guard rename(partial.path, destination.path) == 0 else {
      throw fail(.file(path: destination.path, reason: String(cString: strerror(errno))))
    }
    return received
  }

}
