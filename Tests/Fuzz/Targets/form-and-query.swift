// Fuzz target: form and query parsing, differentially. The input's first byte splits it into
// a query and a form body; the byte-level signer (OAuthSigner) and the String-level generator
// (OAuthSignatureGenerator) must agree: the same header, or the same typed error.
import Foundation
@testable import OAuth1

let consumer = Credentials(key: "fuzz-key", secret: "fuzz-secret")
let token = Credentials(key: "fuzz-token", secret: "fuzz-token-secret")
let options = OAuthSignatureGenerator.Options(nonce: "fuzz-nonce", timestamp: 1_700_000_000)
let signer = try! OAuthSigner(consumer: consumer, token: token, options: options)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFormAndQuery(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  guard count > 0 else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: start, count: count))
  let split = min(Int(bytes[0]), count - 1)
  let query = String(decoding: bytes[1..<(1 + split)], as: UTF8.self)
  let body = Data(bytes[(1 + split)...])
  let request = OAuthRequest(
    method: "POST", url: "https://api.example.com/1/items?" + query, body: body, contentType: "application/x-www-form-urlencoded")
  let fast = Result { () throws(OAuthError) in try signer.authorizationHeader(for: request) }
  let slow = Result { () throws(OAuthError) in
    try OAuthSignatureGenerator(consumerCredentials: consumer, credentials: token, request: request, options: options).authorizationHeader
  }
  switch (fast, slow) {
  case (.success(let a), .success(let b)): require(a == b, "signer and generator disagree on \(request)")
  case (.failure(let a), .failure(let b)): require(a == b, "different errors: \(a) vs \(b)")
  default: fatalError("fuzz property failed: one signed, one failed: \(fast) vs \(slow) for \(request)")
  }
  _ = try? OAuthParameterCollection.parseForm(body, source: .formBody)
  return 0
}
