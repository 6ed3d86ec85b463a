import Foundation
import TestSupport
import Testing

@testable import TweetsCore

/// `PythonJSON` reads and writes JSON as Python's `json` module does (what twarc-csv's list cells
/// are): checked against Python itself on random floats, strings and hand-picked edge cases.
@Suite("PythonJSON against Python's json")
struct PythonJSONTests {
  /// Python's answers for `inputs`, one per line, from `script` run on them (a JSON array on stdin).
  static func python(_ script: String, _ inputs: [String]) async throws -> [String] {
    let result = try await ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script], stdin: try JSONSerialization.data(withJSONObject: inputs), timeout: 60)
    #expect(result.status == 0, "\(result.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String])
  }

  @Test func floatsAreWrittenAsPythonsRepr() async throws {
    var generator = SystemRandomNumberGenerator()
    var numbers: [Double] = [
      0, -0.0, 1, 5, 0.1, 0.0001, 0.00001, 1e15, 1e16, 9_007_199_254_740_992, 123_456_789_012_345_680, 1e22, .leastNonzeroMagnitude,
      .greatestFiniteMagnitude,
      -122.4194, 37.7749, 12.0, 1440,
    ]
    while numbers.count < 3000 {
      let number = Double(bitPattern: generator.next())
      if number.isFinite { numbers.append(number) }
    }
    for exponent in -30...30 { numbers.append(1.5 * pow(10, Double(exponent))) }
    let expected = try await Self.python(
      "import json, sys; print(json.dumps([repr(float(x)) for x in json.load(sys.stdin)]))", numbers.map { "\($0)" })
    for (number, want) in zip(numbers, expected) {
      #expect(PythonJSON.pythonRepr(number) == want, "\(number)")
    }
  }

  @Test func valuesReadAndWrittenAsJsonLoadsThenDumps() async throws {
    var generator = SystemRandomNumberGenerator()
    let pool: [Unicode.Scalar] = ["a", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "☀", "\u{FEFF}", "😀", "𝄞", " "]
    var texts: [String] = []
    for _ in 0..<500 {
      var scalars = String.UnicodeScalarView()
      for _ in 0..<Int.random(in: 0...12, using: &generator) { scalars.append(pool.randomElement(using: &generator)!) }
      texts.append(String(scalars))
    }
    var documents = try texts.map { text in
      String(decoding: try JSONSerialization.data(withJSONObject: ["k": text, text: [1, 2.5, true, NSNull()]] as [String: Any]), as: UTF8.self)
    }
    documents += [
      #"{"a":1,"b":2,"a":3}"#, "-0", "123456789012345678901234567890", "[1.50, 1E2, -0.0, 1e400, 2.5e-3]",
      #"{"x":{"y":[{"z":"\ud83d\ude00\u00e9\/"}]},"e":{}}"#, #"  [ ]  "#, #""\ud800""#,
    ]
    let expected = try await Self.python(
      "import json, sys; print(json.dumps([json.dumps(json.loads(x)) for x in json.load(sys.stdin)]))", documents)
    for (document, want) in zip(documents, expected) {
      // A lone surrogate has no Swift String: it reads as U+FFFD, which Python keeps as itself.
      if document == #""\ud800""# {
        #expect(try PythonJSON.parse(Data(document.utf8)).pythonDumps == #""\ufffd""#)
        continue
      }
      #expect(try PythonJSON.parse(Data(document.utf8)).pythonDumps == want, "\(document)")
    }
  }

  @Test func malformedJSONIsAnErrorThatSaysWhere() {
    for bad in ["", "{", "[1,]", "{\"a\" 1}", "01", "1.", "\"\\x\"", "\"\u{1}\"", "tru", "[1] 2", String(repeating: "[", count: 65)] {
      #expect(throws: PythonJSON.ParseError.self, "\(bad)") { try PythonJSON.parse(Data(bad.utf8)) }
    }
  }
}
