// Fuzz target: resp-reader (the Redis nonce store's reply reader, fed what a hostile server
// sends). Properties: no crash or trap on any bytes; the replies do not depend on how the bytes
// were split into reads; the reader's cost stays within a budget linear in the input.
import Foundation

@testable import OAuth1Redis

#if FUZZING
  @_cdecl("LLVMFuzzerTestOneInput")
#endif
public func fuzzRESPReader(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: start, count: count))
  // Small limits, so that inputs reach them.
  let limits = RESPReader.Limits(maximumReplyBytes: 4096, maximumDepth: 4, maximumElements: 64)

  /// The replies and the first error's text, reading `bytes` in pieces of `size`.
  func read(size: Int) -> ([RESP.Reply], String?) {
    var reader = RESPReader(limits: limits)
    var replies: [RESP.Reply] = []
    for offset in stride(from: 0, to: bytes.count, by: size) {
      reader.append(bytes[offset..<min(offset + size, bytes.count)])
      do {
        while let reply = try reader.next() { replies.append(reply) }
      } catch {
        return (replies, error.description)
      }
    }
    return (replies, nil)
  }

  let clock = ContinuousClock()
  let begin = clock.now
  let whole = read(size: max(1, bytes.count))
  let split = read(size: 1 + Int(bytes.first ?? 0) % 7)
  let elapsed = clock.now - begin
  require(whole.0 == split.0, "the replies depend on how the reads were split")
  require((whole.1 == nil) == (split.1 == nil), "an error depends on how the reads were split")
  if let error = whole.1 { require(error.count < 400, "an error of \(error.count) characters") }
  // Budget: 20 ms plus 20 µs a byte, for both readings (ASan and coverage included); a
  // quadratic reader of a 4 KiB reply read byte by byte needs far more.
  let budget = Duration.milliseconds(20) + .microseconds(20 * bytes.count)
  require(elapsed < budget, "\(bytes.count) bytes cost \(elapsed), over the budget of \(budget)")
  return 0
}
