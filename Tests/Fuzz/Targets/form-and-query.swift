// Fuzz target: form and query parsing through the one signing engine. The input's first byte
// splits it into a query and a form body. Properties: never crashes; a request is signed or
// refused with a typed error; when signed, each public stage applied alone to the previous
// stage's traced value gives the next traced value (collection, normalization, base string,
// signature, header), so no stage can drift from the engine.
import Foundation

@testable import OAuth1

private let consumer = Credentials(key: "fuzz-key", secret: "fuzz-secret")
private let token = Credentials(key: "fuzz-token", secret: "fuzz-token-secret")
private let options = OAuthSignatureGenerator.Options(nonce: "fuzz-nonce", timestamp: 1_700_000_000)

// libFuzzer's entry point in the fuzz build (.ci/fuzz defines FUZZING); in `swift test` the
// same function runs over the stored corpus (Tests/Fuzz/FuzzPropertyTests.swift).
#if FUZZING
  @_cdecl("LLVMFuzzerTestOneInput")
#endif
public func fuzzFormAndQuery(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  guard count > 0 else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: start, count: count))
  let split = min(Int(bytes[0]), count - 1)
  let query = String(decoding: bytes[1..<(1 + split)], as: UTF8.self)
  let body = Array(bytes[(1 + split)...])
  let url = "https://api.example.com/1/items?" + query
  let request = OAuthRequest(method: "POST", url: url, body: Data(body), contentType: "application/x-www-form-urlencoded")
  guard let generator = try? OAuthSignatureGenerator(consumer: consumer, token: token, request: request, options: options) else {
    _ = try? OAuthParameterCollection.parseForm(body, source: .formBody)
    return 0
  }
  let components = try? OAuthURLComponents(url)
  let collected = try? OAuthParameterCollection.collect(query: components?.query, formBody: body, protocolParameters: generator.protocolParameters)
  require(collected == generator.parameters, "collection differs from the trace for \(request)")
  require(OAuthParameterNormalization.normalize(generator.parameters) == generator.normalizedParameters, "normalization differs for \(request)")
  let baseString = OAuthSignatureBaseString.make(
    method: "POST", baseStringURI: generator.baseStringURI, normalizedParameters: generator.normalizedParameters)
  require(baseString == generator.signatureBaseString, "the base string differs for \(request)")
  let signature = try? OAuthSignature.sign(baseString: baseString, method: .hmacSHA1, signingKey: generator.signingKey!)
  require(signature == generator.signature, "the signature differs for \(request)")
  let header = OAuthAuthorizationHeader.make(parameters: generator.signedProtocolParameters)
  require(header == generator.authorizationHeader, "the header differs for \(request)")
  return 0
}
