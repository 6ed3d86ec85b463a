import Foundation
import Testing

/// The fuzz targets' properties, run over their stored corpora (`Tests/Fuzz/Corpus/<target>`,
/// the seeds and the inputs earlier fuzzing rounds kept), so a change that breaks a property the
/// fuzzers once checked fails `swift test` at once. No fuzzing and no sanitizer here:
/// `.ci/fuzz` searches for new inputs.
@Suite("Fuzz properties over the stored corpora", .serialized)
struct FuzzPropertyTests {
  typealias Target = @Sendable (UnsafePointer<UInt8>, Int) -> CInt

  static let targets: [(String, Target)] = [
    ("authorization-header", fuzzAuthorizationHeader), ("base-string-uri", fuzzBaseStringURI),
    ("command-line", fuzzCommandLine), ("form-and-query", fuzzFormAndQuery), ("http-request-head", fuzzHTTPRequestHead),
    ("multipart-reader", fuzzMultipartReader), ("pem-keys", fuzzPEMKeys), ("percent-encoding", fuzzPercentEncoding),
    ("redaction", fuzzRedaction), ("resp-reader", fuzzRESPReader),
    ("verifier-request", fuzzVerifierRequest), ("x-json", fuzzXJSON),
  ]

  @Test(arguments: targets.map(\.0))
  func propertiesHoldOverTheCorpus(target name: String) async throws {
    let target = try #require(Self.targets.first { $0.0 == name }?.1)
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus/\(name)")
    let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
    #expect(!files.isEmpty, "no corpus for \(name)")
    for file in files.sorted(by: { $0.path < $1.path }) {
      let input = try Data(contentsOf: file)
      // On a thread of its own: a target may wait for a Task (the verifier is async), which
      // must not hold one of the test runner's few cooperative threads.
      await Self.onThread {
        // An empty input still needs a valid pointer.
        var bytes = Array(input)
        if bytes.isEmpty { bytes = [0] }
        _ = bytes.withUnsafeBufferPointer { target($0.baseAddress!, input.count) }
      }
      for failure in PropertyFailures.shared.drain() {
        Issue.record(Comment(rawValue: "\(name)/\(file.lastPathComponent): \(failure)"))
      }
    }
  }

  private static func onThread(_ work: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { continuation in
      Thread {
        work()
        continuation.resume()
      }.start()
    }
  }
}
