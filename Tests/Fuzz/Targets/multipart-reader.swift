// Fuzz target: MultipartFormData.parts(of:contentType:), a server's reading of an upload (and a
// signer's). The input's first byte chooses the boundary: `B` repeated 1 to 72 times (quoted in
// the Content-Type when the byte's high bit is set); the rest is the body. Properties: never
// crashes; a boundary longer than 70 characters is refused; each part read stops at the first
// delimiter (its content holds no CRLF, `--` and the boundary) and the parts hold no more bytes
// than the body; one input costs at most 20 ms plus 2 µs per byte (elapsed, the better of two
// runs, times TEST_TIME_SCALE): linear, whatever the body.
import Foundation

@testable import NetworkClient

/// Seconds per input: 20 ms plus 2 µs per byte, times `TEST_TIME_SCALE` (sanitizers).
func multipartBudget(bytes: Int) -> Double {
  let scale = Double(ProcessInfo.processInfo.environment["TEST_TIME_SCALE"] ?? "") ?? 1
  return (0.020 + 2e-6 * Double(bytes)) * max(scale, 1)
}

// libFuzzer's entry point in the fuzz build (.ci/fuzz defines FUZZING); in `swift test` the
// same function runs over the stored corpus (Tests/Fuzz/FuzzPropertyTests.swift).
#if FUZZING
  @_cdecl("LLVMFuzzerTestOneInput")
#endif
public func fuzzMultipartReader(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  guard count > 0 else { return 0 }
  let choice = Int(start[0])
  let boundary = String(repeating: "B", count: 1 + (choice & 0x7F) % 72)
  let contentType = "multipart/form-data; boundary=" + (choice & 0x80 != 0 ? "\"\(boundary)\"" : boundary)
  let body = Data(UnsafeBufferPointer(start: start + 1, count: count - 1))
  var parts: [MultipartFormData.ReceivedPart]?
  var elapsed = Double.infinity
  for _ in 0..<2 {
    let begin = ContinuousClock.now
    parts = MultipartFormData.parts(of: body, contentType: contentType)
    let duration = ContinuousClock.now - begin
    elapsed = min(elapsed, Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    if elapsed <= multipartBudget(bytes: body.count) { break }
  }
  require(elapsed <= multipartBudget(bytes: body.count), "parts(of:) took \(elapsed) s for \(body.count) bytes")
  if boundary.count > MultipartFormData.maxBoundaryLength {
    require(parts == nil, "a boundary of \(boundary.count) characters was read")
  }
  if let parts {
    let delimiter = Data("\r\n--\(boundary)".utf8)
    require(parts.allSatisfy { $0.content.range(of: delimiter) == nil }, "a part runs past its delimiter")
    require(parts.reduce(0) { $0 + $1.content.count } <= body.count, "the parts hold more bytes than the body")
  }
  return 0
}
