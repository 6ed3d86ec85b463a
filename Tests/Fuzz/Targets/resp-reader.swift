// Fuzz target: resp-reader (the Redis nonce store's reply reader, fed what a hostile server
// sends). Properties: no crash or trap on any bytes; the replies do not depend on how the bytes
// were split into reads; the reader's work (bytes looked at, copied or moved) stays within a
// budget linear in the input, however the reads split it.
import Foundation

@testable import OAuth1Redis

#if FUZZING
  @_cdecl("LLVMFuzzerTestOneInput")
#endif
public func fuzzRESPReader(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: start, count: count))
  // Small limits, so that inputs reach them.
  let limits = RESPReader.Limits(maximumReplyBytes: 4096, maximumDepth: 4, maximumElements: 64)

  /// The replies, the first error's text and the reader's work, reading `bytes` in pieces of `size`.
  func read(size: Int) -> ([RESP.Reply], String?, Int) {
    var reader = RESPReader(limits: limits)
    var replies: [RESP.Reply] = []
    for offset in stride(from: 0, to: bytes.count, by: size) {
      reader.append(bytes[offset..<min(offset + size, bytes.count)])
      do {
        while let reply = try reader.next() { replies.append(reply) }
      } catch {
        return (replies, error.description, reader.work)
      }
    }
    return (replies, nil, reader.work)
  }

  let whole = read(size: max(1, bytes.count))
  let split = read(size: 1 + Int(bytes.first ?? 0) % 7)
  require(whole.0 == split.0, "the replies depend on how the reads were split")
  require((whole.1 == nil) == (split.1 == nil), "an error depends on how the reads were split")
  if let error = whole.1 { require(error.count < 400, "an error of \(error.count) characters") }
  // Budget: each byte looked at once, copied once and moved at most once, plus a constant per
  // read; a reader that re-reads from the start of the reply on each read exceeds it at once.
  let budget = 3 * bytes.count + 2 * (bytes.count + 1) + 16
  for (name, work) in [("whole", whole.2), ("split", split.2)] {
    require(work <= budget, "\(bytes.count) bytes cost \(work) units read \(name), over the budget of \(budget)")
  }
  return 0
}
