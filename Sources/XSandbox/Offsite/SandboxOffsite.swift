import Foundation
import Locking
import Loopback

/// The sandbox's "other origin": a stand-in for the hosts X hands out URLs to that are not its
/// API (the CDN of photos and videos, `pbs.twimg.com` and `video.twimg.com`; presigned storage
/// URLs of batch compliance). It serves files by path, takes `PUT`s to presigned paths, logs
/// every request with all its headers, and breaks answers as a test asks
/// (``SandboxOffsiteFault``). ``SandboxServer`` serves it on a loopback port of its own,
/// another origin than the API's, so a client that leaks a credential across origins is
/// caught in the log.
///
/// Its limits: a stored file or an upload is at most ``maxFileBytes`` (the server's body limit
/// refuses a larger `PUT` with 413 before reading it), everything stored at most
/// ``maxStoredBytes`` (507 past it), and the log keeps the newest ``logCapacity`` requests
/// (each at most the server's 64 KiB head).
///
/// ```swift
/// let offsite = SandboxOffsite()
/// offsite.store(Data("hello".utf8), at: "/pbs.twimg.com/media/A.jpg")
/// let upload = offsite.presign("/uploads/job-1")  // "/uploads/job-1?signature=..."
/// ```
final class SandboxOffsite: Sendable {
  /// One file stored or uploaded at most: 16 MiB, the loopback server's body limit.
  static let maxFileBytes = HTTPRequestParser.Limits.defaultMaxBodyBytes
  /// Everything stored at most: 256 MiB.
  static let maxStoredBytes = 256 << 20
  /// The requests the log keeps: the newest 1000.
  static let logCapacity = 1000
  /// The query parameter that carries a presigned path's signature.
  static let signatureParameter = "signature"

  private struct State: Sendable {
    var files: [String: Data] = [:]
    var storedBytes = 0
    /// Presigned upload paths and their signatures.
    var uploads: [String: String] = [:]
    var faults: [(prefix: String, fault: SandboxOffsiteFault)] = []
    var log = SandboxRequestLog<SandboxOffsiteRequest>(capacity: SandboxOffsite.logCapacity)
    var nextSerial = 0
    var baseURL: URL?
  }

  private let state = Locked(State())

  /// An empty origin, with nothing stored.
  init() {}

  /// Where it is served (`http://127.0.0.1:PORT`), once ``SandboxServer`` serves it; `nil` in
  /// process, where nothing listens.
  var baseURL: URL? {
    get { state.withLock { $0.baseURL } }
    set { state.withLock { $0.baseURL = newValue } }
  }

  /// Stores `data` at `path` (`/pbs.twimg.com/media/A.jpg`), replacing what was there; `false`
  /// when it is larger than ``maxFileBytes`` or would take the store past ``maxStoredBytes``.
  @discardableResult
  func store(_ data: Data, at path: String) -> Bool {
    state.withLock { state in
      let replaced = state.files[path]?.count ?? 0
      guard data.count <= Self.maxFileBytes, state.storedBytes - replaced + data.count <= Self.maxStoredBytes else { return false }
      state.files[path] = data
      state.storedBytes += data.count - replaced
      return true
    }
  }

  /// The file at `path`, stored or uploaded; `nil` when there is none.
  func file(at path: String) -> Data? { state.withLock { $0.files[path] } }

  /// A presigned path for one `PUT` of a file to `path`: `path?signature=RANDOM`. A `PUT`
  /// without the signature is refused 403, as a storage host refuses an unsigned upload.
  func presign(_ path: String) -> String {
    let signature = SandboxServer.randomToken()
    state.withLock { $0.uploads[path] = signature }
    return "\(path)?\(Self.signatureParameter)=\(signature)"
  }

  /// Adds a fault for the requests whose path starts with `prefix`.
  func add(_ fault: SandboxOffsiteFault, for prefix: String) {
    state.withLock { $0.faults.append((prefix, fault)) }
  }

  /// The logged requests, oldest first, and how many older ones were dropped.
  var requests: (entries: [SandboxOffsiteRequest], dropped: Int) {
    state.withLock { ($0.log.entries, $0.log.dropped) }
  }

  /// Empties the log and removes the faults; the files stay.
  func resetLog() {
    state.withLock { state in
      state.log = SandboxRequestLog(capacity: Self.logCapacity)
      state.faults = []
    }
  }

  /// The control API's `offsite`: `GET` the log (`requests`, `requests_dropped`, `files`:
  /// path and size); `POST {"path_prefix", "fault", ...}` adds a fault (see
  /// ``SandboxOffsiteFault/init(json:)``); `POST {"reset": true}` empties the log and the faults.
  func control(_ json: [String: Any]) -> (object: [String: Any], status: Int) {
    if json["reset"] as? Bool == true {
      resetLog()
      return (["ok": true], 200)
    }
    if json["fault"] != nil {
      guard let prefix = json["path_prefix"] as? String, prefix.hasPrefix("/") else {
        return (["error": "need path_prefix, a path starting with /"], 400)
      }
      do {
        add(try SandboxOffsiteFault(json: json), for: prefix)
        return (["ok": true], 200)
      } catch {
        return (["error": error.description], 400)
      }
    }
    return state.withLock { state in
      (
        [
          "requests": state.log.entries.map(\.json), "requests_dropped": state.log.dropped,
          "files": state.files.map { ["path": $0.key, "bytes": $0.value.count] }.sorted { ($0["path"] as! String) < ($1["path"] as! String) },
        ], 200
      )
    }
  }

  /// The answer to one request: logged, then a fault's, or the file (`GET`, `HEAD`), or the
  /// upload stored (`PUT` to a presigned path).
  func answer(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
    let path = String(request.target.prefix { $0 != "?" })
    let query = request.target.contains("?") ? String(request.target.drop { $0 != "?" }.dropFirst()) : ""
    let (serial, fault) = state.withLock { state -> (Int, SandboxOffsiteFault?) in
      let serial = state.nextSerial
      state.nextSerial += 1
      state.log.append(
        SandboxOffsiteRequest(serial: serial, method: request.method, target: request.target, headers: request.headers, bodyBytes: request.body.count)
      )
      guard let index = state.faults.firstIndex(where: { path.hasPrefix($0.prefix) }) else { return (serial, nil) }
      let fault = state.faults[index].fault
      state.faults[index].fault.times -= 1
      if state.faults[index].fault.times <= 0 { state.faults.remove(at: index) }
      return (serial, fault)
    }
    let response = respond(request, path: path, query: query, fault: fault)
    state.withLock { $0.log.update(serial: serial) { $0.status = response.status } }
    return response
  }

  private func respond(
    _ request: LoopbackHTTPServer.Request, path: String, query: String, fault: SandboxOffsiteFault?
  ) -> LoopbackHTTPServer.Response {
    func text(_ status: Int, _ words: String) -> LoopbackHTTPServer.Response {
      .init(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Data((words + "\n").utf8))
    }
    switch fault?.kind {
    case .redirect(let location):
      return .init(status: 302, headers: [("Location", location)])
    case .status(let status):
      return text(status, "a fault the test asked for")
    default:
      break
    }
    switch request.method {
    case "GET", "HEAD":
      guard let data = file(at: path) else { return text(404, "no file at \(path)") }
      let headers = [("Content-Type", Self.contentType(of: path))]
      switch fault?.kind {
      case .truncate:
        return .init(status: 200, headers: headers, body: data, delivery: .truncated)
      case .slow(let pause):
        return .init(status: 200, headers: headers) { writer in
          var offset = 0
          while offset < data.count {
            let end = min(data.count, offset + SandboxOffsiteFault.slowChunkBytes)
            guard writer.write(data.subdata(in: offset..<end)) else { return }
            offset = end
            Thread.sleep(forTimeInterval: pause)
          }
        }
      default:
        return .init(status: 200, headers: headers, body: data)
      }
    case "PUT":
      let expected = state.withLock { $0.uploads[path] }
      let sent = query.split(separator: "&").first { $0.hasPrefix(Self.signatureParameter + "=") }?.dropFirst(Self.signatureParameter.count + 1)
      guard let expected, let sent, SandboxServer.constantTimeEquals(Array(sent.utf8), Array(expected.utf8)) else {
        return text(403, "SignatureDoesNotMatch: PUT only to a presigned URL")
      }
      guard store(request.body, at: path) else { return text(507, "the sandbox's storage is full (\(Self.maxStoredBytes) bytes)") }
      return .init(status: 200)
    default:
      return text(405, "GET, HEAD or PUT")
    }
  }

  /// The `Content-Type` of a stored file, by its extension.
  static func contentType(of path: String) -> String {
    switch (path as NSString).pathExtension.lowercased() {
    case "jpg", "jpeg": "image/jpeg"
    case "png": "image/png"
    case "mp4": "video/mp4"
    case "m3u8": "application/x-mpegURL"
    case "json", "jsonl": "application/json"
    default: "application/octet-stream"
    }
  }
}
