// Fuzz target: Redaction.text over any text (a server's body in an error message, a log line).
// Properties: never crashes; reads each byte a bounded number of times (at most 8 looks per
// byte, plus 32, counted by the redactor) and costs at most 20 ms plus 10 µs per byte (elapsed,
// the better of two runs, times TEST_TIME_SCALE): linear, whatever the input; a secret planted
// on a line after the input, in each syntax Redaction knows, never survives it; redacting the
// result again changes nothing.
import Foundation

@testable import NetworkClient

/// Lines that each carry a secret, in the syntaxes `Redaction.text` knows.
private let plantedSecrets: [(line: String, secret: String)] = [
  ("access_token=FUZZSECRET1&x=1", "FUZZSECRET1"),
  (#"{"refresh_token": "FUZZSECRET2", "id": 1}"#, "FUZZSECRET2"),
  ("Authorization: Bearer FUZZSECRET3", "FUZZSECRET3"),
  ("see http://user:FUZZSECRET4@host/x", "FUZZSECRET4"),
  ("code_verifier='FUZZSECRET5'", "FUZZSECRET5"),
  (#"OAuth oauth_consumer_key="k", oauth_token="FUZZSECRET6""#, "FUZZSECRET6"),
  ("sent Basic RlVaWlNFQ1JFVDc6eA==", "RlVaWlNFQ1JFVDc6eA"),
]

/// Seconds per input: 20 ms plus 10 µs per byte, times `TEST_TIME_SCALE` (sanitizers).
func redactionBudget(bytes: Int) -> Double {
  let scale = Double(ProcessInfo.processInfo.environment["TEST_TIME_SCALE"] ?? "") ?? 1
  return (0.020 + 10e-6 * Double(bytes)) * max(scale, 1)
}

// libFuzzer's entry point in the fuzz build (.ci/fuzz defines FUZZING); in `swift test` the
// same function runs over the stored corpus (Tests/Fuzz/FuzzPropertyTests.swift).
#if FUZZING
  @_cdecl("LLVMFuzzerTestOneInput")
#endif
public func fuzzRedaction(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
  let size = text.utf8.count
  var examined = 0
  var redacted = ""
  var elapsed = Double.infinity
  for _ in 0..<2 {
    let begin = ContinuousClock.now
    redacted = Redaction.text(text, examined: &examined)
    let duration = ContinuousClock.now - begin
    elapsed = min(elapsed, Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    if elapsed <= redactionBudget(bytes: size) { break }
  }
  require(examined <= 8 * size + 32, "Redaction.text looked \(examined) times at \(size) bytes")
  require(elapsed <= redactionBudget(bytes: size), "Redaction.text took \(elapsed) s for \(size) bytes (budget \(redactionBudget(bytes: size)) s)")
  require(Redaction.text(redacted) == redacted, "redacting twice changed \(redacted.debugDescription)")
  if !text.contains("FUZZSECRET") && !text.contains("RlVaWlNFQ1JFVDc6eA") {
    for (line, secret) in plantedSecrets {
      let output = Redaction.text(text + "\n" + line)
      require(!output.contains(secret), "\(secret) survived after \(text.debugDescription): \(output.debugDescription)")
    }
  }
  return 0
}
