// Fuzz target: PEM key loading. Properties: any input is a key or a typed error, never a
// crash; a private key that loads signs, and its public half verifies that signature.
import Foundation

@testable import OAuth1

// libFuzzer's entry point in the fuzz build (.ci/fuzz defines FUZZING); in `swift test` the
// same function runs over the stored corpus (Tests/Fuzz/FuzzPropertyTests.swift).
#if FUZZING
  @_cdecl("LLVMFuzzerTestOneInput")
#endif
public func fuzzPEMKeys(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
  if let key = try? RSAPrivateKey(pem: text) {
    let message = Array("fuzz".utf8)
    if let signature = try? key.sign(message, digest: .sha256) {
      require((try? key.publicKey.isValidSignature(signature, for: message, digest: .sha256)) == true, "a key's own signature does not verify")
    }
  }
  _ = try? RSAPublicKey(pem: text)
  return 0
}
