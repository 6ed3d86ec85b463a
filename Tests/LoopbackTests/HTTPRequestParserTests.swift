import Foundation
import Loopback
import TestSupport
import Testing

/// The request parser with no socket: the same result however the bytes are split into reads,
/// and a cost linear in the input.
@Suite("HTTPRequestParser")
struct HTTPRequestParserTests {
  typealias Parser = HTTPRequestParser

  static func summary(_ outcome: Parser.Outcome) -> String {
    switch outcome {
    case .complete(let head, let body): "\(head.method) \(head.target) \(head.headers.map { "\($0.name)=\($0.value)" }) \(Array(body))"
    case .incomplete: "incomplete"
    case .refused(let refusal): "refused \(refusal.status)"
    }
  }

  static let samples = [
    "POST /2/tweets?a=1 HTTP/1.1\r\nHost: 127.0.0.1:1\r\nContent-Length: 5\r\n\r\nhello",
    "POST /up HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nX-Trailer: t\r\n\r\n",
    "GET / HTTP/1.0\r\nX-A:  spaced value \t\r\n\r\n",
    "GET / HTTP/1.1\r\nX-A: a\nB: b\r\n\r\n",
    "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\n",
  ]

  /// Every split of each sample into two reads, and one byte a read, gives what one read gives.
  @Test(arguments: samples)
  func theSameResultHoweverTheBytesArrive(sample: String) {
    let bytes = Array(sample.utf8)
    let whole = Self.summary(Parser.parse(bytes))
    for cut in 0...bytes.count {
      var parser = Parser()
      var outcome = "incomplete"
      do {
        try parser.consume(Array(bytes[..<cut]))
        try parser.consume(Array(bytes[cut...]))
        if let head = parser.head, parser.isComplete { outcome = Self.summary(.complete(head, parser.body)) }
      } catch {
        outcome = "refused \(error.status)"
      }
      #expect(outcome == whole, "cut at \(cut)")
    }
    var parser = Parser()
    var outcome = "incomplete"
    do {
      for byte in bytes { try parser.consume([byte]) }
      if let head = parser.head, parser.isComplete { outcome = Self.summary(.complete(head, parser.body)) }
    } catch {
      outcome = "refused \(error.status)"
    }
    #expect(outcome == whole, "a byte at a time")
  }

  @Test func whatTheSamplesGive() {
    #expect(Self.summary(Parser.parse(Array(Self.samples[0].utf8))).hasSuffix("[104, 101, 108, 108, 111]"))
    #expect(Self.summary(Parser.parse(Array(Self.samples[1].utf8))).hasSuffix("[97, 98, 99, 100, 101]"))
    #expect(Self.summary(Parser.parse(Array(Self.samples[2].utf8))) == "GET / [\"X-A=spaced value\"] []")
    #expect(Self.summary(Parser.parse(Array(Self.samples[3].utf8))) == "refused 400")
    #expect(Self.summary(Parser.parse(Array(Self.samples[4].utf8))) == "refused 413")
    #expect(Self.summary(Parser.parse(Array("GET / HTTP/1.1\r\nHost: a\r\n".utf8))) == "incomplete")
  }

  /// Four times the input costs about four times the time (quadratic would be 16), for each
  /// shape an attacker controls: many header fields, many tiny chunks, a head sent a byte at a
  /// time. Measured in one run, limits raised so that nothing is refused.
  @Test func theCostIsLinearInTheInput() {
    let limits = Parser.Limits(maxHeadBytes: 1 << 30, maxBodyBytes: 1 << 30)
    func headers(_ count: Int) -> [UInt8] {
      Array(("GET / HTTP/1.1\r\n" + String(repeating: "X-A: b\r\n", count: count) + "\r\n").utf8)
    }
    func chunks(_ count: Int) -> [UInt8] {
      Array(("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n" + String(repeating: "1\r\na\r\n", count: 4 * count) + "0\r\n\r\n").utf8)
    }
    let shapes: [(String, (Int) -> [UInt8], Bool)] = [
      ("header fields", headers, false), ("one-byte chunks", chunks, false), ("a head a byte at a time", headers, true),
    ]
    for (name, make, byteAtATime) in shapes {
      let small = make(10_000), large = make(40_000)
      func run(_ input: [UInt8]) -> Int {
        var parser = Parser(limits: limits)
        if byteAtATime {
          for byte in input { _ = try? parser.consume([byte]) }
        } else {
          _ = try? parser.consume(input)
        }
        precondition(parser.isComplete)
        return parser.work
      }
      let (t1, t4) = TestTiming.bestCPUSeconds({ _ = run(small) }, { _ = run(large) })
      let ratio = t4 / t1
      let counted = Double(run(large)) / Double(run(small))
      #expect(ratio < 8, "\(name): 4x the input took \(ratio)x the time")
      #expect(counted < 4.5, "\(name): 4x the input took \(counted)x the work")
      #expect(run(large) <= Parser.workPerByte * large.count + Parser.workAllowance)
      print(
        "[linear] HTTPRequestParser, \(name): \(small.count) → \(large.count) bytes, time x\(String(format: "%.2f", ratio)) (\(String(format: "%.1f", t1 * 1000)) ms → \(String(format: "%.1f", t4 * 1000)) ms), work x\(String(format: "%.2f", counted))"
      )
    }
  }
}
