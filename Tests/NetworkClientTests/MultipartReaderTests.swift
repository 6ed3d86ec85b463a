import Foundation
import NetworkClient
import TestSupport
import Testing

/// The multipart reader (MultipartFormData.parts, the sandbox's media uploads): what
/// NetworkClient's writer sends comes back whole; hostile bodies are refused at their limits;
/// the cost is linear in the body whatever its shape.
@Suite("The multipart reader", .serialized)
struct MultipartReaderTests {
  /// A body of near-misses of a long boundary: every delimiter candidate fails at its last byte.
  static func nearMisses(_ size: Int) -> (body: Data, contentType: String) {
    let boundary = String(repeating: "b", count: MultipartFormData.maxBoundaryLength)
    var body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"media\"\r\n\r\n".utf8)
    let near = Data("\r\n--\(boundary.dropLast())x".utf8)
    while body.count < size { body.append(near) }
    body.append(Data("\r\n--\(boundary)--\r\n".utf8))
    return (body, "multipart/form-data; boundary=\(boundary)")
  }

  static func tinyParts(_ size: Int) -> (body: Data, contentType: String) {
    var body = Data()
    let part = Data("--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n".utf8)
    while body.count < size { body.append(part) }
    body.append(Data("--B--\r\n".utf8))
    return (body, "multipart/form-data; boundary=B")
  }

  static func longHead(_ size: Int) -> (body: Data, contentType: String) {
    var body = Data("--B\r\nContent-Disposition: form-data; name=\"".utf8)
    body.append(Data(repeating: 0x61, count: size))
    body.append(Data("\"\r\n\r\nx\r\n--B--\r\n".utf8))
    return (body, "multipart/form-data; boundary=B")
  }

  /// One part that never ends: the whole body is searched for a delimiter that is not there.
  static func unclosed(_ size: Int) -> (body: Data, contentType: String) {
    var body = Data("--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n".utf8)
    let near = Data("x\r\n-".utf8)
    while body.count < size { body.append(near) }
    return (body, "multipart/form-data; boundary=B")
  }

  /// Four times the input costs about four times the time (quadratic would be 16), for each
  /// shape: near-misses of the delimiter, many tiny parts, one long part head, no delimiter
  /// after the first. The limits are raised so that nothing is refused early.
  @Test(arguments: ["nearMisses", "tinyParts", "longHead", "unclosed"])
  func theCostIsLinearInTheInput(shape: String) {
    let make: (Int) -> (body: Data, contentType: String) =
      switch shape {
      case "nearMisses": Self.nearMisses
      case "tinyParts": Self.tinyParts
      case "longHead": Self.longHead
      default: Self.unclosed
      }
    let small = make(1_000_000), large = make(4_000_000)
    let unlimited = MultipartReader.Limits(maxParts: .max, maxPartHeadBytes: .max)
    func work(_ input: (body: Data, contentType: String)) -> Int {
      var work = 0
      _ = try? MultipartReader.parts(of: input.body, contentType: input.contentType, limits: unlimited, work: &work)
      return work
    }
    let (t1, t4) = TestTiming.bestCPUSeconds({ _ = work(small) }, { _ = work(large) })
    let counted = Double(work(large)) / Double(work(small))
    print(
      "[linear] MultipartReader, \(shape): \(small.body.count) → \(large.body.count) bytes, time x\(String(format: "%.2f", t4 / t1)) (\(String(format: "%.1f", t1 * 1000)) ms → \(String(format: "%.1f", t4 * 1000)) ms), work x\(String(format: "%.2f", counted))"
    )
    #expect(t4 / t1 < 8, "4x the input took \(t4 / t1)x the time")
    #expect(counted < 4.5, "4x the input took \(counted)x the work")
  }

  /// What `MultipartFormData` writes (text, bytes and file parts; names with quotes; it refuses
  /// line breaks in a name) is read back as it was.
  @Test func whatNetworkClientWritesComesBack() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("multipart-\(UUID().uuidString).bin")
    try Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let form = MultipartFormData([
      .text(name: "segment_index", value: "0"), .text(name: "a \"quoted\" name", value: ""),
      .data(name: "media", data: Data("\r\n--not the boundary\r\n".utf8), filename: "clip \"1\".mp4", contentType: "video/mp4"),
      .file(name: "file", url: file, filename: nil, contentType: "application/octet-stream"),
      // A combining mark right after the opening quote (the fuzzer's find: read as Characters,
      // the quote and the mark were one, and the name was lost).
      .text(name: "\u{031B}after a quote", value: "v"),
    ])
    let parts = try MultipartReader.parts(of: try form.encoded(), contentType: form.contentType)
    #expect(parts.map(\.name) == ["segment_index", "a \"quoted\" name", "media", "file", "\u{031B}after a quote"])
    #expect(parts[0].content == Data("0".utf8) && parts[0].filename == nil && parts[0].contentType == nil)
    #expect(parts[2].filename == "clip \"1\".mp4" && parts[2].contentType == "video/mp4")
    #expect(parts[2].content == Data("\r\n--not the boundary\r\n".utf8))
    #expect(parts[3].content == (try Data(contentsOf: file)) && parts[3].filename == file.lastPathComponent)
    // A preamble before the first delimiter, a quoted boundary, padding after a delimiter.
    let other = Data("preamble\r\n--b c\t \r\nContent-Disposition: form-data;name=x\r\n\r\nv\r\n--b c--\r\nepilogue".utf8)
    #expect(try MultipartReader.parts(of: other, contentType: "Multipart/Form-Data; boundary=\"b c\"").map(\.content) == [Data("v".utf8)])
  }

  /// Hostile bodies are refused with what was wrong, and at their limits.
  @Test func hostileBodiesAreRefused() {
    func refusal(_ body: String, boundary: String = "B", limits: MultipartReader.Limits = .init()) -> String? {
      do {
        _ = try MultipartReader.parts(of: Data(body.utf8), contentType: "multipart/form-data; boundary=\(boundary)", limits: limits)
        return nil
      } catch {
        return error.description
      }
    }
    let part = "--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n"
    #expect(refusal(String(repeating: part, count: 16) + "--B--") == nil)
    #expect(refusal(String(repeating: part, count: 17) + "--B--") == "more than 16 parts")
    let long = String(repeating: "b", count: 71)
    #expect(refusal("--\(long)--", boundary: long)?.contains("1 to 70") == true)
    #expect(refusal("--B\r\nX: " + String(repeating: "h", count: 8_200) + "\r\n\r\nx\r\n--B--") == "a part head over 8192 bytes")
    #expect(refusal("--B\r\nContent-Disposition: form-data; name=\"a\"\nX: 1\r\n\r\nx\r\n--B--") == "a bare CR or LF in a part head")
    #expect(refusal("--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx") != nil)
    #expect(refusal("--B\r\nContent-Type: text/plain\r\n\r\nx\r\n--B--")?.contains("name") == true)
    #expect(refusal("no delimiter at all") == "no delimiter --BOUNDARY in the body")
    // 16 MiB of tiny parts: refused at the 17th, at once. Timed in this thread's processor
    // time, which other processes on a busy machine do not stretch (wall time did).
    let flood = String(repeating: part, count: 16 * 1_048_576 / part.utf8.count)
    let started = TestTiming.threadCPUSeconds()
    #expect(refusal(flood) == "more than 16 parts")
    let spent = TestTiming.threadCPUSeconds() - started
    #expect(spent < TestTiming.seconds(1), "\(spent) s of processor time")
  }
}
