import Foundation
import NetworkClient
import NetworkClientTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `multipart/form-data` bodies: the exact bytes, the boundary checked against the content,
/// files streamed, read back by Python's own `email` parser, and sent through a real socket.
@Suite("MultipartFormData")
struct MultipartFormDataTests {
  static func temporaryFile(_ bytes: Data) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("multipart-test-\(UUID().uuidString)")
    try bytes.write(to: url)
    return url
  }

  static func randomBytes(_ count: Int) -> Data {
    var generator = SystemRandomNumberGenerator()
    return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
  }

  @Test func theExactBytes() throws {
    let form = MultipartFormData(
      [
        .text(name: "segment_index", value: "0"),
        .data(name: "media", data: Data("GIF89a".utf8), filename: "a \"b\".gif", contentType: "image/gif"),
      ], boundary: "XyZ")
    let expected =
      "--XyZ\r\nContent-Disposition: form-data; name=\"segment_index\"\r\n\r\n0\r\n"
      + "--XyZ\r\nContent-Disposition: form-data; name=\"media\"; filename=\"a %22b%22.gif\"\r\nContent-Type: image/gif\r\n\r\nGIF89a\r\n"
      + "--XyZ--\r\n"
    #expect(String(decoding: try form.encoded(), as: UTF8.self) == expected)
    #expect(form.contentType == "multipart/form-data; boundary=XyZ")
    #expect(!form.hasFiles)
  }

  @Test func aFileIsStreamedToTheSameBytes() throws {
    let content = Self.randomBytes(300_000)
    let file = try Self.temporaryFile(content)
    defer { try? FileManager.default.removeItem(at: file) }
    let streamed = MultipartFormData([.file(name: "media", url: file, filename: "v.mp4", contentType: "video/mp4")], boundary: "b0undary")
    let inMemory = MultipartFormData([.data(name: "media", data: content, filename: "v.mp4", contentType: "video/mp4")], boundary: "b0undary")
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("multipart-out-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: output) }
    let size = try streamed.write(to: output, chunkSize: 4096)
    #expect(try Data(contentsOf: output) == (try inMemory.encoded()))
    #expect(size == Int64(try inMemory.encoded().count))
  }

  @Test func theBoundaryIsCheckedAgainstTheContentAcrossChunkEdges() throws {
    #expect(throws: MultipartFormData.Failure.self) {
      try MultipartFormData([.text(name: "t", value: "a--B1b")], boundary: "B1").encoded()
    }
    // A boundary split between two 4 KiB chunks of a file.
    var bytes = Data(repeating: 65, count: 4094)
    bytes.append(Data("--SPLIT".utf8))
    let file = try Self.temporaryFile(bytes)
    defer { try? FileManager.default.removeItem(at: file) }
    let form = MultipartFormData([.file(name: "f", url: file, filename: nil, contentType: "application/octet-stream")], boundary: "SPLIT")
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("multipart-out-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: output) }
    #expect(throws: MultipartFormData.Failure.self) { try form.write(to: output, chunkSize: 4096) }
    // Random boundaries differ.
    #expect(MultipartFormData([]).boundary != MultipartFormData([]).boundary)
  }

  @Test("Python's email parser reads every part back", .tags(.peers), .tier(.peers))
  func pythonReadsItBack() async throws {
    let binary = Self.randomBytes(3 << 20)
    let file = try Self.temporaryFile(binary)
    defer { try? FileManager.default.removeItem(at: file) }
    let form = MultipartFormData([
      .text(name: "command", value: "APPEND"),
      .text(name: "note", value: "café, 東京 & \"quotes\"\r\nwith a line break"),
      .file(name: "media", url: file, filename: "clip.mp4", contentType: "video/mp4"),
      .data(name: "empty", data: Data(), filename: "empty.bin", contentType: "application/octet-stream"),
    ])
    let body = FileManager.default.temporaryDirectory.appendingPathComponent("multipart-body-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: body) }
    try form.write(to: body)
    let input = try JSONSerialization.data(withJSONObject: ["content_type": form.contentType, "path": body.path])
    let output = try await PythonPeer.run(script: "multipart_parse.py", input: input)
    let parts = try #require(try JSONSerialization.jsonObject(with: output) as? [[String: Any]])
    #expect(parts.map { $0["name"] as? String } == ["command", "note", "media", "empty"])
    #expect(parts[2]["filename"] as? String == "clip.mp4" && parts[2]["content_type"] as? String == "video/mp4")
    #expect(parts[2]["length"] as? Int == binary.count && parts[2]["sha256"] as? String == Self.sha256(binary))
    #expect(parts[0]["length"] as? Int == 6, "no stray CRLF in a part")
    #expect(parts[1]["sha256"] as? String == Self.sha256(Data("café, 東京 & \"quotes\"\r\nwith a line break".utf8)))
    #expect(parts[3]["length"] as? Int == 0)
  }

  @Test("Sent by the client over a real socket, streamed from a temporary file that goes afterwards", .tags(.peers), .tier(.peers))
  func sentOverLoopback() async throws {
    let server = try await LoopbackServer.start(script: "loopback_server.py", lifetime: 300)
    defer { server.stop() }
    let binary = Self.randomBytes(2 << 20)
    let file = try Self.temporaryFile(binary)
    defer { try? FileManager.default.removeItem(at: file) }
    let form = MultipartFormData(
      [.text(name: "segment_index", value: "0"), .file(name: "media", url: file, filename: "x.bin", contentType: "application/octet-stream")])
    let before = Set(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("networkclient-multipart-") })
    struct Echo: Decodable {
      let headers: [[String]]
      let body_length: Int
      let body_sha256: String
    }
    let client = NetworkClient(baseURL: server.baseURL, transport: URLSessionTransport())
    let echo = try await client.send(Request<Echo>(method: .post, path: "echo", body: .multipart(form)))
    let expected = try form.encoded()
    #expect(echo.body_length == expected.count && echo.body_sha256 == Self.sha256(expected))
    #expect(echo.headers.contains { $0.first?.lowercased() == "content-type" && $0.last == form.contentType })
    let after = Set(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("networkclient-multipart-") })
    #expect(after.subtracting(before).isEmpty, "the temporary body file was removed")
  }

  /// `sha256sum`'s digest of `data` (a quick process: waited for in place).
  static func sha256(_ data: Data) -> String {
    let file = (try? temporaryFile(data)) ?? URL(fileURLWithPath: "/dev/null")
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try? ProcessRunner.runBlocking(URL(fileURLWithPath: "/usr/bin/env"), ["sha256sum", file.path], timeout: 30)
    return String((result?.stdout ?? "").prefix(64))
  }
}
