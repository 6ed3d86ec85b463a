import Foundation
// Fuzz target: the request parser of LoopbackHTTPServer (HTTPRequestParser: the head, then the
// body by Content-Length or chunked), with small limits so that every refusal is reached.
// Properties: it never crashes; the outcome is the same for the input read whole, in two reads
// (split where the first byte says) and a byte at a time; a complete request has no CR, LF or
// NUL in any header name or value and a body within the limit; a refusal is 400, 413, 431, 501
// or 505. Cost budget: at most HTTPRequestParser.workPerByte (12) bytes looked at per input byte
// plus workAllowance (64), however the input is split; and at most 20 µs per byte plus 5 ms of
// time for the whole read, the best of three (a backstop for what the count does not see).
import Loopback

// libFuzzer's entry point in the fuzz build (.ci/fuzz defines FUZZING); in `swift test` the
// same function runs over the stored corpus (Tests/Fuzz/FuzzPropertyTests.swift).
#if FUZZING
  @_cdecl("LLVMFuzzerTestOneInput")
#endif
public func fuzzHTTPRequestHead(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let input = Array(UnsafeBufferPointer(start: start, count: count))
  let limits = HTTPRequestParser.Limits(maxHeadBytes: 2_048, maxBodyBytes: 4_096)
  let budget = HTTPRequestParser.workPerByte * count + HTTPRequestParser.workAllowance

  let (whole, wholeWork) = requestOutcome(input.isEmpty ? [] : [input], limits)
  require(wholeWork <= budget, "read whole, \(count) bytes cost \(wholeWork) (budget \(budget))")
  // The best of three timings: a busy machine may stop any one of them for milliseconds.
  let timeBudget = 20_000 * UInt64(count) + 5_000_000
  var nanoseconds = UInt64.max
  for _ in 0..<3 where nanoseconds > timeBudget {
    let started = DispatchTime.now().uptimeNanoseconds
    _ = requestOutcome([input], limits)
    nanoseconds = min(nanoseconds, DispatchTime.now().uptimeNanoseconds - started)
  }
  require(nanoseconds <= timeBudget, "read whole, \(count) bytes took \(nanoseconds) ns")

  let cut = input.isEmpty ? 0 : Int(input[0]) * input.count / 256
  let (split, splitWork) = requestOutcome([Array(input[..<cut]), Array(input[cut...])], limits)
  require(split == whole, "split at \(cut): \(split), whole: \(whole)")
  require(splitWork <= budget, "split, \(count) bytes cost \(splitWork) (budget \(budget))")
  if count <= 16_384 {
    let (bytewise, bytewiseWork) = requestOutcome(input.map { [$0] }, limits)
    require(bytewise == whole, "a byte at a time: \(bytewise), whole: \(whole)")
    require(bytewiseWork <= budget, "a byte at a time, \(count) bytes cost \(bytewiseWork) (budget \(budget))")
  }
  return 0
}

/// What the parser made of `reads`, as text to compare, and the work it counted.
private func requestOutcome(_ reads: [[UInt8]], _ limits: HTTPRequestParser.Limits) -> (String, Int) {
  var parser = HTTPRequestParser(limits: limits)
  do {
    for read in reads {
      if try parser.consume(read) { break }
    }
  } catch {
    require([400, 413, 431, 501, 505].contains(error.status), "refused with \(error.status)")
    return ("refused \(error.status)", parser.work)
  }
  guard let head = parser.head, parser.isComplete else { return ("incomplete", parser.work) }
  for (name, value) in head.headers {
    let forbidden: (UInt8) -> Bool = { $0 == 13 || $0 == 10 || $0 == 0 }
    require(!name.utf8.contains(where: forbidden) && !value.utf8.contains(where: forbidden), "a CR, LF or NUL in a header")
  }
  require(parser.body.count <= limits.maxBodyBytes, "a body of \(parser.body.count) bytes")
  let fields = head.headers.map { "\($0.name)=\($0.value)" }.joined(separator: "|")
  return ("\(head.method) \(head.target) \(head.version) \(fields) \(parser.body.count):\(parser.body.hashValue)", parser.work)
}
