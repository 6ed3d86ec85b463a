import Foundation
import PercentEncoding

/// Builds the signature base string on bytes, for the signer's and the verifier's fast paths:
/// `enc(METHOD)&enc(base string URI)&enc(normalized parameters)`, written once into one buffer.
enum SignatureBaseStringBuilder {
  /// `protocolParameters`: names and canonically encoded values of the `oauth_*` parameters
  /// that take part (never `oauth_signature` or `realm`).
  static func build(
    method: String, target: RequestTarget, formBody: Data?, protocolParameters: [EncodedParameter]
  ) throws(OAuthError) -> (baseString: [UInt8], parameters: CanonicalParameters) {
    var encodedLength = 0
    for parameter in protocolParameters { encodedLength += parameter.name.count + parameter.value.count }
    var parameters = CanonicalParameters(rawBytes: target.query.count + (formBody?.count ?? 0), encodedBytes: encodedLength)
    try target.query.withUnsafeBufferPointer { query throws(OAuthError) in
      try parameters.appendForm(query, source: .query)
    }
    if let formBody {
      // Data.withUnsafeBytes rethrows untyped errors, so the typed one travels in a Result.
      let outcome: Result<Void, OAuthError> = formBody.withUnsafeBytes { raw in
        Result { () throws(OAuthError) in try parameters.appendForm(raw.bindMemory(to: UInt8.self), source: .formBody) }
      }
      try outcome.get()
    }
    for parameter in protocolParameters {
      parameters.append(parameter)
    }
    parameters.sort()

    let encodedMethod = Self.encodedMethod(method)
    let uri = target.encodedBaseStringURI
    let length = encodedMethod.count + 1 + uri.count + 1 + parameters.baseStringLength
    let baseString = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
      let out = buffer.baseAddress!
      encodedMethod.withUnsafeBufferPointer { out.update(from: $0.baseAddress!, count: $0.count) }
      var written = encodedMethod.count
      out[written] = UInt8(ascii: "&")
      written += 1
      uri.withUnsafeBufferPointer { (out + written).update(from: $0.baseAddress!, count: $0.count) }
      written += uri.count
      out[written] = UInt8(ascii: "&")
      written += 1
      written += parameters.writeBaseString(into: out + written)
      count = written
    }
    return (baseString, parameters)
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
