import CCurl
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One request on one curl easy handle: its options, its body going out, its response coming
/// in, and the task waiting for it.
///
/// Invariants (the reasons this class may be `@unchecked Sendable`):
/// - Every field but ``easy`` and the immutable ones is touched only on the engine's thread:
///   in ``configure(_:)`` (before the handle joins the multi handle), in curl's callbacks
///   (which curl calls from `curl_multi_perform`, on that thread), and in ``finish(_:)``.
/// - curl's callbacks get this object as their user data, unretained: the engine holds it
///   (its `running` table) from `curl_multi_add_handle` until after `curl_multi_remove_handle`,
///   so it outlives every call curl makes with it.
/// - The easy handle is the engine's: given in ``configure(_:)``, taken back (reset, for the
///   next transfer) when the transfer leaves the multi handle. The header list and the error
///   buffer are freed in `deinit`, after that.
final class CurlTransfer: @unchecked Sendable {
  /// How the response goes back: whole, or its head first and its body as it arrives.
  enum Delivery {
    case whole(CheckedContinuation<HTTPResponse, any Error>)
    case stream(head: CheckedContinuation<HTTPStreamingResponse, any Error>?, body: StreamBuffer)
    case done
  }

  /// Where the request's body comes from.
  enum Upload {
    case none
    case bytes(Data)
    case file(FileHandle)
  }

  /// The easy handle, while the engine lends it.
  var easy: UnsafeMutableRawPointer?
  let request: HTTPRequest
  /// Seconds without a byte in or out after which the transfer fails as timed out.
  let stallTimeout: TimeInterval?
  var delivery: Delivery
  /// What a stream's reader calls to hang up.
  var cancelStream: (@Sendable () -> Void)?
  private var upload: Upload = .none
  private var uploadOffset = 0
  private var head = CurlResponseHead()
  private var body = Data()
  private var headerList: UnsafeMutablePointer<curl_slist>?
  private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
  /// The last time a byte moved (`DispatchTime` nanoseconds).
  var lastActivity = DispatchTime.now().uptimeNanoseconds
  /// The most bytes of a whole answer (the configuration's), and whether the answer passed it.
  private var maxResponseBytes = Int.max
  private var oversized = false
  /// Whether curl holds the transfer paused because its reader is behind (its silence then is
  /// the reader's, not the server's: no stall timeout runs).
  var pausedForReader = false

  init(request: HTTPRequest, delivery: Delivery, stallTimeout: TimeInterval?) {
    self.request = request
    self.delivery = delivery
    self.stallTimeout = stallTimeout
    errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
  }

  deinit {
    ccurl_slist_free_all(headerList)
    errorBuffer.deallocate()
    if case .file(let handle) = upload { try? handle.close() }
  }

  /// Whether the transfer has been silent for longer than its stall timeout at `now`.
  func isStalled(now: UInt64) -> Bool {
    guard let stallTimeout, !pausedForReader else { return false }
    return Double(now &- lastActivity) / 1e9 > stallTimeout
  }

  /// Sets the handle's options for the request; the error when one cannot be set (a header
  /// with a line break, a body file that cannot be read).
  func configure(_ easy: UnsafeMutableRawPointer, _ configuration: CurlTransport.Configuration) -> URLError? {
    self.easy = easy
    maxResponseBytes = configuration.maxResponseBytes
    func set(_ code: CURLcode) -> URLError? { code == CURLE_OK ? nil : CurlFailure.error(code, message: "") }
    let me = Unmanaged.passUnretained(self).toOpaque()
    var failures: [URLError?] = [
      set(ccurl_setopt_string(easy, CURLOPT_URL, request.url.absoluteString)),
      set(ccurl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)),
      // Only HTTP(S), also after a proxy; the URL exactly as given (a signature covers it).
      set(ccurl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")),
      set(ccurl_setopt_long(easy, CURLOPT_PATH_AS_IS, 1)),
      set(ccurl_setopt_long(easy, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)),
      set(ccurl_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1)),
      set(ccurl_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))),
      set(ccurl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(min(configuration.connectTimeout, request.timeout ?? .infinity)))),
      set(ccurl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)),
      set(ccurl_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION, curlWrite)),
      set(ccurl_setopt_pointer(easy, CURLOPT_WRITEDATA, me)),
      set(ccurl_setopt_data_callback(easy, CURLOPT_HEADERFUNCTION, curlHeader)),
      set(ccurl_setopt_pointer(easy, CURLOPT_HEADERDATA, me)),
    ]
    if let host = request.url.host, LocalHosts.isLocal(host) {
      // This machine's loopback and link go direct: "" is curl's "no proxy", whatever
      // http_proxy or ALL_PROXY say (a proxy elsewhere cannot reach them, nor should it see them).
      failures.append(set(ccurl_setopt_string(easy, CURLOPT_PROXY, "")))
    }
    if let total = configuration.totalTimeout { failures.append(set(ccurl_setopt_long(easy, CURLOPT_TIMEOUT_MS, Self.milliseconds(total)))) }
    if let file = configuration.caFile { failures.append(set(ccurl_setopt_string(easy, CURLOPT_CAINFO, file))) }
    if let folder = configuration.caDirectory { failures.append(set(ccurl_setopt_string(easy, CURLOPT_CAPATH, folder))) }
    if !request.headers.contains("Accept-Encoding") {
      // Every encoding curl decodes, decoded for the caller, as URLSession does.
      failures.append(set(ccurl_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, "")))
    }
    if let failure = failures.lazy.compactMap({ $0 }).first { return failure }
    if let failure = configureMethodAndBody(easy, me) { return failure }
    return configureHeaders(easy)
  }

  private func configureMethodAndBody(_ easy: UnsafeMutableRawPointer, _ me: UnsafeMutableRawPointer) -> URLError? {
    let method = request.method.rawValue
    var size: Int?
    if let file = request.bodyFile {
      guard let handle = try? FileHandle(forReadingFrom: file), let length = try? handle.seekToEnd(), (try? handle.seek(toOffset: 0)) != nil else {
        return URLError(.cannotOpenFile, userInfo: [NSLocalizedDescriptionKey: "cannot read the request body file \(file.path)"])
      }
      upload = .file(handle)
      size = Int(length)
    } else if let data = request.body {
      upload = .bytes(data)
      size = data.count
    }
    var codes: [CURLcode] = []
    switch (method, size) {
    case ("GET", nil): codes.append(ccurl_setopt_long(easy, CURLOPT_HTTPGET, 1))
    case ("HEAD", _): codes.append(ccurl_setopt_long(easy, CURLOPT_NOBODY, 1))
    case (_, nil) where !["POST", "PUT", "PATCH"].contains(method):
      codes.append(ccurl_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method))
    default:
      // A body (or an empty one, with Content-Length: 0) read through the read callback.
      codes += [
        ccurl_setopt_long(easy, CURLOPT_POST, 1), ccurl_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(size ?? 0)),
        ccurl_setopt_data_callback(easy, CURLOPT_READFUNCTION, curlRead), ccurl_setopt_pointer(easy, CURLOPT_READDATA, me),
        ccurl_setopt_seek_callback(easy, curlSeek), ccurl_setopt_pointer(easy, CURLOPT_SEEKDATA, me),
      ]
      if method != "POST" { codes.append(ccurl_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method)) }
    }
    guard let failed = codes.first(where: { $0 != CURLE_OK }) else { return nil }
    return CurlFailure.error(failed, message: "")
  }

  private func configureHeaders(_ easy: UnsafeMutableRawPointer) -> URLError? {
    if let reason = request.headers.invalidFieldReason { return URLError(.badURL, userInfo: [NSLocalizedDescriptionKey: reason]) }
    var lines: [String] = []
    for field in request.headers {
      // "Name;" is curl's spelling of a header with an empty value ("Name:" would remove it).
      lines.append(field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)")
    }
    // No `Expect: 100-continue` pause before a body; no Content-Type curl would invent for a POST.
    lines.append("Expect:")
    if !request.headers.contains("Content-Type") { lines.append("Content-Type:") }
    for line in lines { headerList = ccurl_slist_append(headerList, line) }
    let code = ccurl_setopt_pointer(easy, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headerList))
    return code == CURLE_OK ? nil : CurlFailure.error(code, message: "")
  }

  // MARK: Callbacks (on the engine's thread)

  /// Body bytes: kept, or handed to the stream's reader.
  fileprivate func received(_ bytes: UnsafeRawBufferPointer) -> Int {
    lastActivity = DispatchTime.now().uptimeNanoseconds
    switch delivery {
    case .stream(_, let buffer):
      guard buffer.offer(Data(bytes)) else {
        // curl keeps these bytes and hands them again after curl_easy_pause(CONT).
        pausedForReader = true
        return Int(CURL_WRITEFUNC_PAUSE)
      }
    default:
      guard body.count + bytes.count <= maxResponseBytes else {
        oversized = true
        return 0  // curl fails the transfer (CURLE_WRITE_ERROR)
      }
      body.append(contentsOf: bytes)
    }
    return bytes.count
  }

  /// One header line; the complete head of a stream goes to the task waiting for it.
  fileprivate func receivedHeader(_ line: UnsafeRawBufferPointer) -> Int {
    lastActivity = DispatchTime.now().uptimeNanoseconds
    guard head.take(line) else { return 0 }  // a head past its limit: curl fails the transfer
    if head.isComplete, case .stream(let waiting?, let buffer) = delivery {
      delivery = .stream(head: nil, body: buffer)
      let cancel = cancelStream ?? {}
      waiting.resume(returning: HTTPStreamingResponse(statusCode: head.statusCode, headers: head.headers, body: buffer.stream, cancel: cancel))
    }
    return line.count
  }

  /// Fills curl's `buffer` with the next bytes of the body; 0 at its end.
  fileprivate func send(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    lastActivity = DispatchTime.now().uptimeNanoseconds
    switch upload {
    case .none: return 0
    case .bytes(let data):
      let count = min(buffer.count, data.count - uploadOffset)
      guard count > 0 else { return 0 }
      data.withUnsafeBytes { source in
        buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[uploadOffset..<uploadOffset + count]))
      }
      uploadOffset += count
      return count
    case .file(let handle):
      guard let base = buffer.baseAddress else { return 0 }
      let count = read(handle.fileDescriptor, base, buffer.count)
      return count < 0 ? Int(CURL_READFUNC_ABORT) : count
    }
  }

  /// Moves the body back to `offset` from its start, for curl to send it again.
  fileprivate func seek(to offset: Int64) -> Int32 {
    switch upload {
    case .none: return offset == 0 ? CURL_SEEKFUNC_OK : CURL_SEEKFUNC_FAIL
    case .bytes(let data):
      guard offset >= 0, offset <= data.count else { return CURL_SEEKFUNC_FAIL }
      uploadOffset = Int(offset)
      return CURL_SEEKFUNC_OK
    case .file(let handle):
      return lseek(handle.fileDescriptor, off_t(offset), SEEK_SET) < 0 ? CURL_SEEKFUNC_FAIL : CURL_SEEKFUNC_OK
    }
  }

  // MARK: Completion (on the engine's thread)

  /// Ends the transfer: `nil` for success (the response goes back), or the error.
  func finish(_ failure: (any Error)?) {
    let delivery = self.delivery
    self.delivery = .done
    // The stream's hang-up refers back to this transfer: let go of it.
    cancelStream = nil
    switch delivery {
    case .whole(let continuation):
      if let failure {
        continuation.resume(throwing: failure)
      } else if !head.isComplete && request.method != .head && head.statusCode == 0 {
        continuation.resume(throwing: URLError(.badServerResponse))
      } else {
        continuation.resume(returning: HTTPResponse(statusCode: head.statusCode, headers: head.headers, body: body, request: request))
      }
    case .stream(let waiting, let buffer):
      if let waiting {
        waiting.resume(throwing: failure ?? URLError(.badServerResponse))
        buffer.finish(throwing: failure ?? URLError(.badServerResponse))
      } else {
        buffer.finish(throwing: failure)
      }
    case .done:
      break
    }
  }

  /// The error of a transfer curl ended with `code`.
  func failure(_ code: CURLcode) -> URLError {
    if oversized {
      return URLError(
        .dataLengthExceedsMaximum,
        userInfo: [NSLocalizedDescriptionKey: "the answer was larger than \(maxResponseBytes) bytes (CurlTransport's maxResponseBytes): refused"])
    }
    return CurlFailure.error(code, message: String(cString: errorBuffer))
  }

  static func milliseconds(_ seconds: TimeInterval) -> Int {
    seconds.isFinite ? max(1, Int((seconds * 1000).rounded(.up))) : 0
  }
}

// curl's callbacks: C functions that find their transfer in the user data (see the invariants
// above) and hand it the bytes.

private let curlWrite: curl_write_callback = { data, size, count, user in
  guard let user else { return 0 }
  let transfer = Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue()
  return transfer.received(UnsafeRawBufferPointer(start: data, count: size * count))
}

private let curlHeader: curl_write_callback = { data, size, count, user in
  guard let user else { return 0 }
  let transfer = Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue()
  return transfer.receivedHeader(UnsafeRawBufferPointer(start: data, count: size * count))
}

private let curlRead: curl_write_callback = { buffer, size, count, user in
  guard let user else { return Int(CURL_READFUNC_ABORT) }
  let transfer = Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue()
  return transfer.send(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
}

private let curlSeek: curl_seek_callback = { user, offset, origin in
  guard let user, origin == SEEK_SET else { return CURL_SEEKFUNC_CANTSEEK }
  return Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue().seek(to: Int64(offset))
}
