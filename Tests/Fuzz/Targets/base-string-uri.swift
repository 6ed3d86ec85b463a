// Fuzz target: base string URI normalization. Properties: never crashes; normalizing a
// normalized URI changes nothing (idempotent); the signer's fast URL reader and the full
// splitter agree (same signature, or the same error).
import Foundation
@testable import OAuth1

let consumer = Credentials(key: "fuzz-key", secret: "fuzz-secret")
let options = OAuthSignatureGenerator.Options(nonce: "fuzz-nonce", timestamp: 1_700_000_000)
let signer = try! OAuthSigner(consumer: consumer, options: options)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBaseStringURI(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let url = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
  if let normalized = try? OAuthBaseStringURI.make(url: url) {
    let again = try? OAuthBaseStringURI.make(url: normalized)
    require(again == normalized, "not idempotent: \(url.debugDescription) -> \(normalized.debugDescription) -> \(String(describing: again))")
  }
  let request = OAuthRequest(method: "GET", url: url)
  let fast = Result { () throws(OAuthError) in try signer.authorizationHeader(for: request) }
  let slow = Result { () throws(OAuthError) in try OAuthSignatureGenerator(consumerCredentials: consumer, request: request, options: options).authorizationHeader }
  switch (fast, slow) {
  case (.success(let a), .success(let b)): require(a == b, "signer and generator disagree on \(url.debugDescription)")
  case (.failure(let a), .failure(let b)): require(a == b, "different errors for \(url.debugDescription): \(a) vs \(b)")
  default: fatalError("fuzz property failed: one signed, one failed for \(url.debugDescription): \(fast) vs \(slow)")
  }
  return 0
}
