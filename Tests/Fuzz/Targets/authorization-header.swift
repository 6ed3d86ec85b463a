// Fuzz target: Authorization header parsing. Properties: parsing never crashes; a parsed
// header built again and parsed again gives the same parameters (and realm, when it has no
// control character the builder must escape); the verifier's byte scanner agrees with the public parser.
import Foundation

@testable import OAuth1

// libFuzzer's entry point in the fuzz build (.ci/fuzz defines FUZZING); in `swift test` the
// same function runs over the stored corpus (Tests/Fuzz/FuzzPropertyTests.swift).
#if FUZZING
  @_cdecl("LLVMFuzzerTestOneInput")
#endif
public func fuzzAuthorizationHeader(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let header = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
  guard let fields = try? OAuthAuthorizationHeader.parse(header) else { return 0 }
  let rebuilt = OAuthAuthorizationHeader.make(parameters: fields.parameters, realm: fields.realm)
  guard let again = try? OAuthAuthorizationHeader.parse(rebuilt) else {
    require(false, "a rebuilt header does not parse: \(rebuilt.debugDescription)")
    return 0
  }
  require(again.parameters == fields.parameters, "parameters changed in a round trip")
  // The builder percent-encodes control characters in a realm (no header injection), so only
  // a realm without them, and without "%", comes back as it was.
  if let realm = fields.realm, !realm.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "%" }) {
    require(again.realm == realm, "realm changed in a round trip")
  }
  // The same header through the verifier: it must not crash, whatever it decides.
  let verifier = OAuthVerifier(credentials: InMemoryCredentialLookup(consumers: [:], tokens: [:]))
  let semaphore = DispatchSemaphore(value: 0)
  Task {
    _ = try? await verifier.verify(OAuthRequest(method: "GET", url: "https://example.com/"), authorization: header)
    semaphore.signal()
  }
  semaphore.wait()
  return 0
}
