// Fuzz target: the package's one multipart reader, MultipartReader (the sandbox's media uploads)
// and MultipartFormData.parts(of:contentType:) over it (a server's and a signer's reading). The
// input's first line is the Content-Type, the rest the body. Properties: it never crashes; what
// it reads keeps to its limits and holds no more bytes than the body; for a content type
// `multipart/form-data; boundary=B...` (quoted or not), a boundary longer than 70 characters is
// refused and no part runs past its delimiter; what MultipartFormData writes (parts made from the
// input: names, file names, bytes) is read back as it was. Cost: at most
// MultipartReader.workPerByte (8) bytes looked at per byte of body and content type plus
// workAllowance (256); and at most 20 ms plus 2 µs per byte of time (the better of two runs,
// times TEST_TIME_SCALE): linear, whatever the body.
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
  let input = UnsafeBufferPointer(start: start, count: count)
  let lineEnd = input.firstIndex(of: 10) ?? input.endIndex
  let contentType = String(decoding: input[..<lineEnd], as: UTF8.self)
  let body = Data(input[min(lineEnd + 1, input.endIndex)...])
  let limits = MultipartReader.Limits()

  // The reader's own count of its work, within its limits.
  var work = 0
  let limited = try? MultipartReader.parts(of: body, contentType: contentType, limits: limits, work: &work)
  let size = body.count + contentType.utf8.count
  let budget = MultipartReader.workPerByte * size + MultipartReader.workAllowance
  require(work <= budget, "\(size) bytes cost \(work) (budget \(budget))")
  if let limited {
    require(limited.count <= limits.maxParts, "\(limited.count) parts")
    require(limited.reduce(0) { $0 + $1.content.count } <= body.count, "more content than body")
  }

  // MultipartFormData's reading, with no limit on the parts: its time, the better of two runs.
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
  if let parts {
    require(parts.reduce(0) { $0 + $1.content.count } <= body.count, "the parts hold more bytes than the body")
  }
  let prefix = "multipart/form-data; boundary="
  if contentType.hasPrefix(prefix) {
    var boundary = String(contentType.dropFirst(prefix.count))
    if boundary.count >= 2, boundary.hasPrefix("\""), boundary.hasSuffix("\"") { boundary = String(boundary.dropFirst().dropLast()) }
    if !boundary.isEmpty, boundary.allSatisfy({ $0 == "B" }) {
      if boundary.count > MultipartFormData.maxBoundaryLength {
        require(parts == nil, "a boundary of \(boundary.count) characters was read")
      }
      let delimiter = Data("\r\n--\(boundary)".utf8)
      require((parts ?? []).allSatisfy { $0.content.range(of: delimiter) == nil }, "a part runs past its delimiter")
    }
  }

  // The round trip: up to four parts cut from the input, written by MultipartFormData.
  let pieces = input.split(separator: 0, maxSplits: 8, omittingEmptySubsequences: false).map(Array.init)
  var written: [MultipartFormData.Part] = []
  var expected: [(name: String, filename: String?, content: Data)] = []
  var index = 0
  while index + 1 < pieces.count && written.count < 4 {
    // `%` is how the writer escapes quotes and line breaks: a literal one reads back otherwise.
    // At most 1,000 bytes, so that a part head (name and file name, each escaped at most
    // threefold) stays under the reader's 8 KiB.
    let name = String(decoding: pieces[index].filter { $0 != 37 }.prefix(1_000), as: UTF8.self)
    let content = Data(pieces[index + 1])
    if written.count % 2 == 0 {
      written.append(.data(name: name, data: content, filename: name + ".bin", contentType: "application/octet-stream"))
      expected.append((name, name + ".bin", content))
    } else {
      let text = String(decoding: content, as: UTF8.self)
      written.append(.text(name: name, value: text))
      expected.append((name, nil, Data(text.utf8)))
    }
    index += 2
  }
  let form = MultipartFormData(written, boundary: "fuzz-multipart-reader-boundary-0123456789")
  guard !written.isEmpty, let encoded = try? form.encoded() else { return 0 }
  do {
    let read = try MultipartReader.parts(of: encoded, contentType: form.contentType)
    require(read.count == expected.count, "\(expected.count) parts written, \(read.count) read")
    for (part, wanted) in zip(read, expected) {
      require(part.name == wanted.name && part.filename == wanted.filename, "the part \(wanted.name.debugDescription) read back otherwise")
      require(part.content == wanted.content, "the content of \(wanted.name.debugDescription) read back otherwise")
    }
    require(MultipartFormData.parts(of: encoded, contentType: form.contentType)?.count == expected.count, "parts(of:) read it otherwise")
  } catch {
    require(false, "what MultipartFormData wrote was refused: \(error)")
  }
  return 0
}
