import Foundation
import NetworkClient
import TestSupport
import Testing

/// What reads untrusted text costs time linear in its size: `Redaction` (server bodies in
/// errors and logs) and the multipart reader (a server's, and a signer's). Each input of size n
/// and 4n is timed in the same run, best of a few, and the ratio must stay far below 16, what
/// quadratic time would give (issue #35, "linear cost").
@Suite("Linear cost: redaction and the multipart reader", .serialized)
struct LinearCostTests {
  /// The cost of input `make(4n)` over the cost of `make(n)`, each the best of five runs of
  /// this thread's processor time, the two sizes taking turns (`TestTiming.bestCPUSeconds`): load
  /// elsewhere on the machine does not count.
  static func ratio<Input>(n: Int, _ make: (Int) -> Input, _ run: (Input) -> Void) -> (ratio: Double, small: Double, large: Double) {
    let small = make(n), large = make(4 * n)
    run(small)  // warm up
    let (smallTime, largeTime) = TestTiming.bestCPUSeconds({ run(small) }, { run(large) })
    return (largeTime / max(smallTime, 1e-9), smallTime, largeTime)
  }

  /// Inputs that make a backtracking pattern or a rescanning reader work per byte: a long word
  /// with no separator, many names and no values, quotes that open and never close, credential
  /// schemes in a row, URLs without a host's end, and a plain form.
  static let redactionInputs: [(String, @Sendable (Int) -> String)] = [
    ("one long word", { String(repeating: "a", count: $0) }),
    ("names without values", { String(repeating: "token ", count: $0 / 6) }),
    ("open quotes", { String(repeating: "\"token", count: $0 / 6) }),
    ("schemes in a row", { String(repeating: "Bearer ", count: $0 / 7) }),
    ("URLs that never end", { String(repeating: "http://a:", count: $0 / 9) }),
    ("a form", { String(repeating: "access_token=abc&x=1&", count: $0 / 21) }),
    ("JSON", { String(repeating: #"{"refresh_token": "r", "id": 12},"#, count: $0 / 33) }),
  ]

  @Test(arguments: redactionInputs.map(\.0))
  func redactionIsLinear(input name: String) {
    let make = Self.redactionInputs.first { $0.0 == name }!.1
    let n = name == "one long word" ? 1_000_000 : 100_000
    let (ratio, small, large) = Self.ratio(n: n, make) { _ = Redaction.text($0) }
    print("[cost] Redaction.text, \(name): \(n) characters \(small) s, \(4 * n) \(large) s, ratio \(ratio)")
    #expect(ratio < 8, "\(name): \(small) s for \(n) characters, \(large) s for \(4 * n): ratio \(ratio) (quadratic would be 16)")
  }

  /// Bodies the reader must walk: many small parts, one large part, and one large part full of
  /// near-misses of the boundary (`\r\n--` and the boundary but its last character).
  static let multipartInputs: [(String, @Sendable (Int) -> Data)] = [
    (
      "many parts",
      { n in
        var body = Data()
        for index in 0..<(n / 80) { body.append(Data("--B\r\nContent-Disposition: form-data; name=\"f\(index)\"\r\n\r\nvalue \(index)\r\n".utf8)) }
        body.append(Data("--B--\r\n".utf8))
        return body
      }
    ),
    (
      "near misses",
      { n in
        let boundary = String(repeating: "b", count: MultipartFormData.maxBoundaryLength)
        let miss = "\r\n--" + boundary.dropLast() + "c"
        var body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\n".utf8)
        body.append(Data(String(repeating: miss, count: n / miss.utf8.count).utf8))
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        return body
      }
    ),
  ]

  @Test(arguments: multipartInputs.map(\.0))
  func theMultipartReaderIsLinear(input name: String) {
    let make = Self.multipartInputs.first { $0.0 == name }!.1
    let type =
      name == "near misses"
      ? "multipart/form-data; boundary=" + String(repeating: "b", count: MultipartFormData.maxBoundaryLength) : "multipart/form-data; boundary=B"
    let (ratio, small, large) = Self.ratio(n: 200_000, make) { _ = MultipartFormData.parts(of: $0, contentType: type) }
    print("[cost] MultipartFormData.parts, \(name): 200k \(small) s, 800k \(large) s, ratio \(ratio)")
    #expect(MultipartFormData.parts(of: make(1000), contentType: type) != nil)
    #expect(ratio < 8, "\(name): \(small) s for 200 kB, \(large) s for 800 kB: ratio \(ratio) (quadratic would be 16)")
  }
}
