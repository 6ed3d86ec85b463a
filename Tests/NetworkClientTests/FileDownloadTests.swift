import Foundation
import Locking
import Loopback
import NetworkClient
import TestSupport
import Testing

/// `FileDownload` against a loopback server that records every header it receives: the file
/// lands under its name only whole; a short body, a file over the limit (announced or growing),
/// an error status and a redirect loop each fail by name and leave nothing behind; a redirect to
/// another origin is followed with no credential, as none is ever sent.
@Suite("FileDownload")
struct FileDownloadTests {
  let folder: URL

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("download-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  /// A server answering `answer`, and the headers of every request it received.
  static func server(
    _ answer: @escaping @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response
  ) throws -> (LoopbackHTTPServer, Locked<[[(name: String, value: String)]]>) {
    let seen = Locked<[[(name: String, value: String)]]>([])
    let server = try LoopbackHTTPServer { request in
      seen.withLock { $0.append(request.headers) }
      return answer(request)
    }
    return (server, seen)
  }

  static let body = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })

  func leftovers() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder.path) }

  @Test func aWholeFileLandsUnderItsNameAndARedirectToAnotherOriginCarriesNoCredential() async throws {
    let (cdn, seen) = try Self.server { _ in .init(status: 200, headers: [("Content-Type", "video/mp4")], body: Self.body) }
    // Another origin (another port) that sends the client on to the CDN.
    let (first, firstSeen) = try Self.server { _ in .init(status: 302, headers: [("Location", cdn.baseURL.absoluteString + "/v.mp4")]) }
    let destination = folder.appendingPathComponent("7_1.mp4")
    let chunks = Locked(0)
    let result = try await FileDownload().download(from: first.baseURL.appendingPathComponent("start"), to: destination) { chunk in
      chunks.withLock { $0 += chunk.count }
    }
    #expect(result.bytes == Int64(Self.body.count) && chunks.withLock { $0 } == Self.body.count)
    #expect(try Data(contentsOf: destination) == Self.body)
    #expect(result.redirections.count == 1 && result.finalURL.port == cdn.baseURL.port)
    #expect(try leftovers() == ["7_1.mp4"])
    for headers in seen.withLock({ $0 }) + firstSeen.withLock({ $0 }) {
      #expect(!headers.contains { ["authorization", "cookie", "proxy-authorization"].contains($0.name.lowercased()) }, "\(headers)")
      // The bytes as stored: no content coding, whose decoded body would not match Content-Length.
      #expect(headers.contains { $0.name.lowercased() == "accept-encoding" && $0.value == "identity" }, "\(headers)")
    }
  }

  @Test func aShortBodyFailsAndLeavesNothing() async throws {
    let (server, _) = try Self.server { _ in .init(status: 200, body: Self.body, delivery: .truncated) }
    let destination = folder.appendingPathComponent("a.jpg")
    await #expect(throws: FileDownloadError.self) { try await FileDownload().download(from: server.baseURL, to: destination) }
    #expect(try leftovers().isEmpty)
  }

  @Test func aFileOverTheLimitIsRefusedAnnouncedOrGrowing() async throws {
    let limits = FileDownload.Limits(maxBytes: 50_000)
    let (announced, announcedSeen) = try Self.server { _ in .init(status: 200, body: Self.body) }
    do {
      _ = try await FileDownload(limits: limits).download(from: announced.baseURL, to: folder.appendingPathComponent("a"))
      Issue.record("a file of 100,000 bytes passed a limit of 50,000")
    } catch {
      guard case .tooLarge(50_000, 100_000) = error else {
        Issue.record("\(error)")
        return
      }
    }
    #expect(announcedSeen.withLock { $0.count } == 1)
    // A chunked body announces no length: refused once it grows past the limit.
    let (growing, _) = try Self.server { _ in
      .init(status: 200) { writer in
        for _ in 0..<20 where writer.write(Data(count: 8192)) {}
      }
    }
    do {
      _ = try await FileDownload(limits: limits).download(from: growing.baseURL, to: folder.appendingPathComponent("b"))
      Issue.record("a growing body passed the limit")
    } catch {
      guard case .tooLarge(50_000, nil) = error else {
        Issue.record("\(error)")
        return
      }
    }
    #expect(try leftovers().isEmpty)
  }

  @Test func aBodyThatStallsPastTheIdleTimeoutFails() async throws {
    let (stalling, _) = try Self.server { _ in
      .init(status: 200) { writer in
        guard writer.write(Data(count: 1000)) else { return }
        Thread.sleep(forTimeInterval: 300)
        _ = writer.write(Data(count: 1000))
      }
    }
    let started = Date()
    do {
      _ = try await FileDownload(limits: .init(idleTimeout: 1)).download(from: stalling.baseURL, to: folder.appendingPathComponent("a"))
      Issue.record("a stalled body passed")
    } catch {
      guard case .network(.transport(let failure)) = error, failure.kind == .timedOut else {
        Issue.record("\(error)")
        return
      }
    }
    // The transport checks the silence every 50 ms, but this machine may be busy (other tests'
    // threads can hold the concurrency pool for seconds): well before the server's 300 s.
    #expect(Date().timeIntervalSince(started) < TestTiming.seconds(120), "the 1 s idle timeout, well before the server's 300 s pause ended")
    #expect(try leftovers().isEmpty)
  }

  @Test func anErrorStatusAndARedirectLoopFailByName() async throws {
    let (missing, _) = try Self.server { _ in .init(status: 404, body: Data("gone".utf8)) }
    do {
      _ = try await FileDownload().download(from: missing.baseURL, to: folder.appendingPathComponent("a"))
      Issue.record("a 404 passed")
    } catch {
      guard case .network(let failure) = error, failure.statusCode == 404 else {
        Issue.record("\(error)")
        return
      }
    }
    let (loop, loopSeen) = try Self.server { request in .init(status: 302, headers: [("Location", request.target)]) }
    do {
      _ = try await FileDownload().download(from: loop.baseURL.appendingPathComponent("again"), to: folder.appendingPathComponent("b"))
      Issue.record("a redirect loop passed")
    } catch {
      guard case .network(.redirect) = error else {
        Issue.record("\(error)")
        return
      }
    }
    #expect(loopSeen.withLock { $0.count } == RedirectPolicy.default.maxRedirects + 1)
    #expect(try leftovers().isEmpty)
  }
}
