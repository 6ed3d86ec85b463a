import Foundation
import PercentEncoding

/// Builds the signature base string on bytes, for the signer's and the verifier's fast paths:
/// `enc(METHOD)&enc(base string URI)&enc(normalized parameters)`, written once into one buffer.
enum SignatureBaseStringBuilder {
  /// Lends `body` the base string and the sorted parameters it was made of.
  ///
  /// `protocolBytes` and `protocolCount`: the encoded length and the number of the `oauth_*`
  /// pairs that take part (never `oauth_signature` or `realm`), which `addProtocolParameters`
  /// appends. Everything lives in scratch memory for the duration of the call.
  static func withBaseString<R>(
    method: String, target: RequestTarget, formBody: UnsafeBufferPointer<UInt8>?,
    protocolBytes: Int, protocolCount: Int, addProtocolParameters: (inout CanonicalParameters) -> Void,
    _ body: (UnsafeBufferPointer<UInt8>, CanonicalParameters) throws(OAuthError) -> R
  ) throws(OAuthError) -> R {
    try CanonicalParameters.withScratch(
      query: target.query, formBody: formBody, encodedBytes: protocolBytes, extraEntries: protocolCount
    ) { parameters throws(OAuthError) in
      try parameters.appendForm(target.query, source: .query)
      if let formBody { try parameters.appendForm(formBody, source: .formBody) }
      addProtocolParameters(&parameters)
      parameters.sort()

      let encodedMethod = Self.encodedMethod(method)
      let capacity = encodedMethod.count + 1 + target.encodedURICapacity + 1 + parameters.baseStringLength
      let sorted = parameters
      return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer throws(OAuthError) in
        let out = buffer.baseAddress!
        encodedMethod.withUnsafeBufferPointer { method in
          if let base = method.baseAddress { out.update(from: base, count: method.count) }
        }
        var written = encodedMethod.count
        out[written] = UInt8(ascii: "&")
        written += 1
        written += target.writeEncodedURI(into: out + written)
        out[written] = UInt8(ascii: "&")
        written += 1
        written += sorted.writeBaseString(into: out + written)
        return try body(UnsafeBufferPointer(start: out, count: written), sorted)
      }
    }
  }

  /// `enc(METHOD)`: the method uppercased and encoded (an ordinary method is already both).
  private static func encodedMethod(_ method: String) -> [UInt8] {
    switch method {
    case "GET": return get
    case "POST": return post
    default: break
    }
    let bytes = Array(method.utf8)
    if !bytes.isEmpty, bytes.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) { return bytes }
    return Array(PercentEncoding.encode(method.uppercased()).utf8)
  }
  private static let get = Array("GET".utf8)
  private static let post = Array("POST".utf8)
}
