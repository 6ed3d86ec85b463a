import Foundation
import NetworkClient
import NetworkClientTesting
import Testing

/// A multipart body's temporary file is private (0600, created exclusively, never through a
/// link) and goes after use, whatever happens; a part's header values hold no line break
/// (issue #35, item 9).
@Suite("MultipartFormData: the temporary file and the part headers")
struct MultipartHygieneTests {
  static func file(_ text: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("multipart-hygiene-\(UUID().uuidString)")
    try Data(text.utf8).write(to: url)
    return url
  }

  static func mode(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }

  @Test func theTemporaryBodyFileIsPrivateAndGoesAfterUse() async throws {
    let source = try Self.file("the file's bytes")
    defer { try? FileManager.default.removeItem(at: source) }
    let seen = Locked<(path: String, mode: Int)?>(nil)
    let stub = StubTransport(
      fallback: .handler { request in
        let path = request.bodyFile?.path ?? ""
        seen.withLock { $0 = (path, Self.mode(path)) }
        return HTTPResponse(statusCode: 200, request: request)
      })
    let client = NetworkClient(baseURL: URL(string: "https://api.example.com")!, transport: stub)
    let form = MultipartFormData([.file(name: "media", url: source, filename: "a.bin", contentType: "application/octet-stream")])
    _ = try await client.send(Request<Data>(method: .post, path: "upload", body: .multipart(form)))
    let file = try #require(seen.withLock { $0 })
    #expect(file.mode == 0o600, "mode \(String(file.mode, radix: 8))")
    #expect(!FileManager.default.fileExists(atPath: file.path), "removed after use")
  }

  /// A body that fails half-way (a file holds the boundary) leaves no temporary file behind.
  @Test func aBodyThatCannotBeWrittenLeavesNoTemporaryFile() async throws {
    let boundary = "hygiene-\(UUID().uuidString)"
    let source = try Self.file("before --\(boundary) after")
    defer { try? FileManager.default.removeItem(at: source) }
    let form = MultipartFormData([.file(name: "media", url: source, filename: nil, contentType: "text/plain")], boundary: boundary)
    let client = NetworkClient(baseURL: URL(string: "https://api.example.com")!, transport: StubTransport(fallback: .status(200)))
    await #expect(throws: NetworkError.self) { try await client.send(Request<Data>(method: .post, path: "upload", body: .multipart(form))) }
    let directory = FileManager.default.temporaryDirectory
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { name in
      name.hasPrefix("networkclient-multipart-")
        && (FileHandle(forReadingAtPath: directory.appendingPathComponent(name).path)?.readData(ofLength: 200))
          .map { String(decoding: $0, as: UTF8.self).contains(boundary) } == true
    }
    #expect(left.isEmpty, "left behind: \(left)")
  }

  /// `write(to:)` creates its file 0600 and replaces a link instead of writing through it.
  @Test func writingToAPathReplacesALinkAndIsPrivate() throws {
    let victim = try Self.file("not yours")
    defer { try? FileManager.default.removeItem(at: victim) }
    let link = FileManager.default.temporaryDirectory.appendingPathComponent("multipart-link-\(UUID().uuidString)")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim)
    defer { try? FileManager.default.removeItem(at: link) }
    try MultipartFormData([.text(name: "a", value: "1")]).write(to: link)
    #expect(try String(contentsOf: victim, encoding: .utf8) == "not yours")
    #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == nil, "the link itself was replaced")
    #expect(Self.mode(link.path) == 0o600)
  }

  @Test(arguments: [
    ("content type", MultipartFormData.Part.data(name: "a", data: Data("x".utf8), filename: "a.txt", contentType: "text/plain\r\nX-Evil: 1")),
    ("content type", .file(name: "a", url: URL(fileURLWithPath: "/dev/null"), filename: "a", contentType: "text/plain\nX-Evil: 1")),
    ("content type", .data(name: "a", data: Data(), filename: nil, contentType: "text/plain\0")),
    ("name", .text(name: "a\r\nX-Evil: 1", value: "x")),
    ("filename", .data(name: "a", data: Data(), filename: "a\r\n.txt", contentType: "text/plain")),
  ])
  func aLineBreakInAPartHeaderIsRefused(field: String, part: MultipartFormData.Part) throws {
    let form = MultipartFormData([part], boundary: "B")
    do {
      let body = try form.encoded()
      Issue.record("encoded: \(String(decoding: body, as: UTF8.self).debugDescription)")
    } catch {
      #expect(error.reason == .controlCharacter(part: String(reflecting: form.partName(0)), field: field))
      #expect(error.description.contains(field) && error.description.contains("control character"), "\(error)")
      #expect(!error.description.contains("\r") && !error.description.contains("\n"), "\(error)")
    }
  }

  @Test func aBoundaryThatIsNoBoundaryIsRefused() throws {
    for boundary in ["a\r\nX-Evil: 1", String(repeating: "b", count: 71), "", "semi;colon", "quote\""] {
      #expect("\(boundary.debugDescription)") {
        try MultipartFormData([.text(name: "a", value: "1")], boundary: boundary).encoded()
      } throws: { error in
        (error as? MultipartFormData.Failure)?.reason == .invalidBoundary
      }
    }
    let longest = String(repeating: "b", count: MultipartFormData.maxBoundaryLength)
    let body = try MultipartFormData([.text(name: "a", value: "1")], boundary: longest).encoded()
    #expect(MultipartFormData.parts(of: body, contentType: "multipart/form-data; boundary=\(longest)")?.count == 1)
    // A reader takes no longer boundary either: looking for one costs its length at every byte.
    let longer = longest + "b"
    let hostile = Data("--\(longer)\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--\(longer)--\r\n".utf8)
    #expect(MultipartFormData.parts(of: hostile, contentType: "multipart/form-data; boundary=\(longer)") == nil)
    #expect(MultipartFormData.parts(of: hostile, contentType: "multipart/form-data; boundary=\"\"") == nil)
  }
}

extension MultipartFormData {
  /// The name of the part at `index`.
  fileprivate func partName(_ index: Int) -> String {
    switch parts[index] {
    case .text(let name, _), .data(let name, _, _, _), .file(let name, _, _, _): return name
    }
  }
}
