// Fuzz target: a request as the verifier receives it, before any credential is checked. The
// input's first byte picks where the rest goes (Authorization header, query or form body).
// Properties: verifying never crashes; every refusal is a typed problem with an HTTP status the
// verifier documents, and no control character in what it repeats of the request (its advice
// and parameter names, which reach logs); and reading costs linear time: the input repeated to
// 64 KiB (each `#` replaced by the copy's number, so names differ) is read with no limit but the
// engine's within a budget of 5 ms + 1 µs per byte of thread CPU time (times TEST_TIME_SCALE).
// In a debug build the seeds take at most a quarter of it; with the quadratic scan of unknown
// names that #35 item 1 removed, four of the nine seeds took 3 to 7 times the budget.
import Foundation
import OAuth1

private let fuzzNow: Int64 = 1_700_000_000
private let fuzzVerifier = OAuthVerifier(
  credentials: InMemoryCredentialLookup(consumers: ["app-key": OAuthConsumer(secret: "app-secret")], tokens: ["t": "ts"]),
  options: .init(clock: FixedClock(seconds: fuzzNow)))
private let fuzzExpandedBytes = 64 * 1024
private let fuzzTimeScale: Double = {
  guard let text = ProcessInfo.processInfo.environment["TEST_TIME_SCALE"], let value = Double(text), value >= 1 else { return 1 }
  return value
}()

/// The statuses a refusal may carry: the problems' own and the limits'.
private let fuzzStatuses: Set<Int> = [400, 401, 413, 414, 431, 503]

// libFuzzer's entry point in the fuzz build (.ci/fuzz defines FUZZING); in `swift test` the
// same function runs over the stored corpus (Tests/Fuzz/FuzzPropertyTests.swift).
#if FUZZING
  @_cdecl("LLVMFuzzerTestOneInput")
#endif
public func fuzzVerifierRequest(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  guard count > 1 else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: start, count: count))
  let place = bytes[0] % 3
  let unit = String(decoding: bytes[1...], as: UTF8.self)

  // As sent, under the default limits.
  let (request, authorization) = fuzzRequest(place: place, parts: [unit.replacingOccurrences(of: "#", with: "0")])
  fuzzCheckVerification(request, authorization)

  // Repeated to 32 KiB and read with no limit but the engine's: the cost is linear.
  let copies = max(1, min(fuzzExpandedBytes / max(bytes.count - 1, 1), 10_000))
  let parts = (0..<copies).map { unit.replacingOccurrences(of: "#", with: String($0)) }
  let (large, largeAuthorization) = fuzzRequest(place: place, parts: parts)
  let size = large.url.utf8.count + (large.body?.count ?? 0) + (largeAuthorization?.utf8.count ?? 0)
  let started = fuzzThreadCPUTime()
  _ = try? OAuthSignatureBaseString.make(received: large, authorization: largeAuthorization, limits: .engineMaximum)
  let elapsed = fuzzThreadCPUTime() - started
  let budget = (0.005 + 1e-6 * Double(size)) * fuzzTimeScale
  require(elapsed <= budget, "reading \(size) bytes (\(copies) copies, place \(place)) took \(elapsed) s of CPU; the budget is \(budget) s")
  return 0
}

/// The request with `parts` in the header (joined by ", "), the query or the form body (by "&").
private func fuzzRequest(place: UInt8, parts: [String]) -> (OAuthRequest, String?) {
  switch place {
  case 0:
    return (OAuthRequest(method: "GET", url: "https://api.example.com/x"), "OAuth " + parts.joined(separator: ", "))
  case 1:
    return (OAuthRequest(method: "GET", url: "https://api.example.com/x?" + parts.joined(separator: "&")), nil)
  default:
    let body = Data(parts.joined(separator: "&").utf8)
    return (OAuthRequest(method: "POST", url: "https://api.example.com/x", body: body, contentType: "application/x-www-form-urlencoded"), nil)
  }
}

/// Verifies the request and checks what a refusal says.
private func fuzzCheckVerification(_ request: OAuthRequest, _ authorization: String?) {
  let semaphore = DispatchSemaphore(value: 0)
  nonisolated(unsafe) var failure: OAuthVerificationError?
  Task {
    do throws(OAuthVerificationError) { _ = try await fuzzVerifier.verify(request, authorization: authorization) } catch { failure = error }
    semaphore.signal()
  }
  semaphore.wait()
  guard let failure else { return }
  require(fuzzStatuses.contains(failure.httpStatus), "status \(failure.httpStatus) for \(failure.problem.rawValue)")
  require(failure.response().status == failure.httpStatus, "the response's status differs from the error's")
  for text in [failure.advice] + failure.parameters {
    let control = text.unicodeScalars.first { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }
    require(
      control == nil,
      "\(failure.problem.rawValue) repeats the control character U+\(String(control?.value ?? 0, radix: 16)): \(text.debugDescription)")
  }
  require(failure.advice.count <= OAuthVerificationError.maximumAdviceLength + 1, "an advice of \(failure.advice.count) characters")
}

/// The CPU time of this thread, in seconds: work of other threads does not count.
private func fuzzThreadCPUTime() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
