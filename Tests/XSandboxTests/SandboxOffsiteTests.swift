import Foundation
import NetworkClient
import TestSupport
import Testing
import XAPI
import XSandbox

@testable import XSandbox

/// The sandbox's other origin (issue #31 item 4; batch compliance's presigned URLs reuse it):
/// the media files its posts point to on a loopback port of its own, presigned `PUT`s, a log
/// of every header received, and the faults a CDN or storage host shows (truncated, slow,
/// redirected); hostile requests refused by name.
@Suite("The sandbox's other origin")
struct SandboxOffsiteTests {
  /// A sandbox served on loopback with its control API, and its other origin's port.
  private func served() throws -> (sandbox: XSandbox, server: SandboxServer, port: Int) {
    let sandbox = XSandbox(tweetsPerUser: 20, controlAPI: true)
    let server = try SandboxServer(sandbox: sandbox)
    return (sandbox, server, Int(server.offsiteURL.port ?? 0))
  }

  /// One request over a raw socket: the status, the head and the body as received.
  private func exchange(_ port: Int, _ request: String, body: Data = Data()) throws -> (status: Int?, head: String, body: Data) {
    let socket = try RawSocket(port: port)
    _ = socket.send(Data(request.utf8) + body)
    let answer = socket.receive(timeout: 10)
    guard let end = answer.range(of: Data("\r\n\r\n".utf8)) else {
      return (RawSocket.status(of: answer), String(decoding: answer, as: UTF8.self), Data())
    }
    return (RawSocket.status(of: answer), String(decoding: answer[..<end.lowerBound], as: UTF8.self), answer[end.upperBound...])
  }

  private func control(_ sandbox: XSandbox, _ body: [String: Any]? = nil) async throws -> [String: Any] {
    var request = HTTPRequest(method: body == nil ? .get : .post, url: URL(string: "https://api.x.com/_control/offsite")!)
    if let body { request.body = try JSONSerialization.data(withJSONObject: body) }
    let response = try await sandbox.send(request)
    return try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any], "\(response.statusCode)")
  }

  @Test func mediaURLsPointToTheOtherOriginWhichServesTheirFilesAndLogsEveryHeader() async throws {
    let (sandbox, server, port) = try served()
    defer { server.stop() }
    let client = XClient(
      authentication: .oauth1(consumer: XSandbox.demoConsumer, token: XSandbox.demoAccessToken), baseURL: server.baseURL, retry: nil)
    let tweets = try await client.v2.userTweets(userID: "1002", options: TimelineOptions(maxResults: 20), limit: 20).tweets().collect()
    let media: [Media] = tweets.flatMap { $0.media ?? [] }
    let video = try #require(media.first { $0.type == "video" })
    let variants: [MediaVariant] = video.variants ?? []
    #expect(variants.count == 3 && variants.contains { $0.contentType == "application/x-mpegURL" })
    let mp4: [MediaVariant] = variants.filter { $0.contentType == "video/mp4" }
    let best = try #require(mp4.max { ($0.bitRate ?? 0) < ($1.bitRate ?? 0) })
    let url = try #require(URL(string: best.url))
    let apiPort = server.baseURL.port
    #expect(url.host == "127.0.0.1" && url.port == port && url.port != apiPort)

    let answer = try exchange(port, "GET \(url.path)?\(url.query ?? "") HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Probe: seen\r\n\r\n")
    let listed = try await control(sandbox)
    let files = try #require(listed["files"] as? [[String: Any]])
    let size = try #require(files.first { $0["path"] as? String == url.path }?["bytes"] as? Int)
    #expect(answer.status == 200 && answer.body.count == size && size == 2_176_000 / 16)
    let requests = try #require(listed["requests"] as? [[String: Any]])
    let headers = try #require(requests.last?["headers"] as? [[String]])
    #expect(headers.contains(["X-Probe", "seen"]) && requests.last?["status"] as? Int == 200)
    #expect(listed["base_url"] as? String == server.offsiteURL.absoluteString)
  }

  @Test func aPutGoesOnlyToAPresignedPath() async throws {
    let (sandbox, server, port) = try served()
    defer { server.stop() }
    let presigned = sandbox.offsite.presign("/uploads/job-1")
    let payload = Data("1\n2\n3\n".utf8)
    let unsigned = try exchange(port, "PUT /uploads/job-1 HTTP/1.1\r\nHost: x\r\nContent-Length: \(payload.count)\r\n\r\n", body: payload)
    let forged = try exchange(
      port, "PUT /uploads/job-1?signature=0000 HTTP/1.1\r\nHost: x\r\nContent-Length: \(payload.count)\r\n\r\n", body: payload)
    #expect(unsigned.status == 403 && forged.status == 403 && sandbox.offsite.file(at: "/uploads/job-1") == nil)
    let signed = try exchange(port, "PUT \(presigned) HTTP/1.1\r\nHost: x\r\nContent-Length: \(payload.count)\r\n\r\n", body: payload)
    #expect(signed.status == 200 && sandbox.offsite.file(at: "/uploads/job-1") == payload)
    let back = try exchange(port, "GET /uploads/job-1 HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(back.status == 200 && back.body == payload)
  }

  @Test func faultsTruncateSlowDownRedirectAndRefuse() async throws {
    let (sandbox, server, port) = try served()
    defer { server.stop() }
    sandbox.offsite.store(Data(repeating: 7, count: 40_000), at: "/cdn/file.mp4")
    let get = "GET /cdn/file.mp4 HTTP/1.1\r\nHost: x\r\n\r\n"

    _ = try await control(sandbox, ["path_prefix": "/cdn/", "fault": "truncate"])
    let truncated = try exchange(port, get)
    #expect(truncated.status == 200 && truncated.head.contains("Content-Length: 40000") && truncated.body.count == 20_000)

    _ = try await control(sandbox, ["path_prefix": "/cdn/", "fault": "redirect", "location": "http://127.0.0.1:9/elsewhere"])
    let redirected = try exchange(port, get)
    #expect(redirected.status == 302 && redirected.head.contains("Location: http://127.0.0.1:9/elsewhere"))

    _ = try await control(sandbox, ["path_prefix": "/cdn/", "fault": "slow", "pause": 0.1])
    let start = Date()
    let slow = try exchange(port, get)
    // 40,000 bytes in 8 KiB chunks: five chunks, a pause after each.
    #expect(slow.status == 200 && Date().timeIntervalSince(start) >= 0.4 && slow.head.contains("Transfer-Encoding: chunked"))

    _ = try await control(sandbox, ["path_prefix": "/cdn/", "fault": "status", "status": 403, "times": 2])
    #expect(try exchange(port, get).status == 403 && exchange(port, get).status == 403 && exchange(port, get).status == 200)
  }

  @Test func hostileRequestsAndControlsAreRefusedByName() async throws {
    let (sandbox, server, port) = try served()
    defer { server.stop() }
    #expect(try exchange(port, "DELETE /cdn/a HTTP/1.1\r\nHost: x\r\n\r\n").status == 405)
    #expect(try exchange(port, "GET /nothing/here HTTP/1.1\r\nHost: x\r\n\r\n").status == 404)
    #expect(try exchange(port, "GET /a HTTP/1.1\nHost: x\n\n").status == 400)
    let presigned = sandbox.offsite.presign("/uploads/big")
    let tooLarge = SandboxOffsite.maxFileBytes + 1
    #expect(try exchange(port, "PUT \(presigned) HTTP/1.1\r\nHost: x\r\nContent-Length: \(tooLarge)\r\n\r\n").status == 413)
    #expect(sandbox.offsite.store(Data(count: SandboxOffsite.maxFileBytes + 1), at: "/big") == false)
    for bad: [String: Any] in [
      ["path_prefix": "/a", "fault": "melt"], ["path_prefix": "/a", "fault": "slow", "pause": 3600], ["fault": "truncate"],
      ["path_prefix": "/a", "fault": "redirect", "location": "file:///etc/passwd"], ["path_prefix": "/a", "fault": "status", "status": 99],
      ["path_prefix": "/a", "fault": "truncate", "times": 0],
    ] {
      let refused = try await control(sandbox, bad)
      #expect(refused["error"] is String, "\(bad)")
    }
  }

  @Test func theLogKeepsTheNewestRequests() async throws {
    let (sandbox, server, port) = try served()
    defer { server.stop() }
    for index in 0..<(SandboxOffsite.logCapacity + 5) {
      _ = try exchange(port, "HEAD /n/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
    }
    let log = try await control(sandbox)
    let requests = try #require(log["requests"] as? [[String: Any]])
    #expect(requests.count == SandboxOffsite.logCapacity && log["requests_dropped"] as? Int == 5)
    #expect(requests.first?["target"] as? String == "/n/5")
  }
}
