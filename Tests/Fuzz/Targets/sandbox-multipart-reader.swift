// Fuzz target (sandbox-multipart-reader): the sandbox's multipart reader (SandboxMultipart, media uploads). The input's
// first line is the Content-Type, the rest the body. Properties: it never crashes; what it
// reads keeps to its limits; and what NetworkClient's MultipartFormData writes (parts made
// from the input: names, file names, bytes) is read back as it was. Cost budget: at most
// SandboxMultipart.workPerByte (8) bytes looked at per byte of body and content type plus
// workAllowance (256); and at most 20 µs per byte plus 5 ms of time, the best of three (a
// backstop).
import Foundation
import NetworkClient

@testable import XSandbox

// libFuzzer's entry point in the fuzz build (.ci/fuzz defines FUZZING); in `swift test` the
// same function runs over the stored corpus (Tests/Fuzz/FuzzPropertyTests.swift).
#if FUZZING
  @_cdecl("LLVMFuzzerTestOneInput")
#endif
public func fuzzSandboxMultipartReader(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let input = UnsafeBufferPointer(start: start, count: count)
  let lineEnd = input.firstIndex(of: 10) ?? input.endIndex
  let contentType = String(decoding: input[..<lineEnd], as: UTF8.self)
  let body = Data(input[min(lineEnd + 1, input.endIndex)...])
  let limits = SandboxMultipart.Limits()

  var work = 0
  let parts = try? SandboxMultipart.parts(of: body, contentType: contentType, limits: limits, work: &work)
  let size = body.count + contentType.utf8.count
  let budget = SandboxMultipart.workPerByte * size + SandboxMultipart.workAllowance
  require(work <= budget, "\(size) bytes cost \(work) (budget \(budget))")
  // The best of three timings: a busy machine may stop any one of them for milliseconds.
  let timeBudget = 20_000 * UInt64(size) + 5_000_000
  var nanoseconds = UInt64.max
  for _ in 0..<3 where nanoseconds > timeBudget {
    let started = DispatchTime.now().uptimeNanoseconds
    _ = try? SandboxMultipart.parts(of: body, contentType: contentType, limits: limits)
    nanoseconds = min(nanoseconds, DispatchTime.now().uptimeNanoseconds - started)
  }
  require(nanoseconds <= timeBudget, "\(size) bytes took \(nanoseconds) ns")
  if let parts {
    require(parts.count <= limits.maxParts, "\(parts.count) parts")
    require(parts.reduce(0) { $0 + $1.content.count } <= body.count, "more content than body")
  }

  // The round trip: up to four parts cut from the input, written by NetworkClient.
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
    let read = try SandboxMultipart.parts(of: encoded, contentType: form.contentType)
    require(read.count == expected.count, "\(expected.count) parts written, \(read.count) read")
    for (part, wanted) in zip(read, expected) {
      require(part.name == wanted.name && part.filename == wanted.filename, "the part \(wanted.name.debugDescription) read back otherwise")
      require(part.content == wanted.content, "the content of \(wanted.name.debugDescription) read back otherwise")
    }
  } catch {
    require(false, "what MultipartFormData wrote was refused: \(error)")
  }
  return 0
}
