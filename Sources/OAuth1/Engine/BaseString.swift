import Foundation
import PercentEncoding

/// Stage 5 of the engine: `enc(METHOD)&enc(base string URI)&enc(normalized parameters)`,
/// written once into one buffer. The signer and the verifier write the last two parts straight
/// from the request (``RequestTarget``) and the sorted pairs (``CanonicalParameters``);
/// ``OAuthSignatureBaseString`` writes them from its strings, through the same routine.
enum BaseString {
  /// Lends `body` the base string of a request: its method, its target, and its sorted
  /// parameters with the (sorted) protocol parameters merged in. The bytes live in scratch
  /// memory for the duration of the call.
  static func with<R>(
    method: String, target: RequestTarget, parameters: CanonicalParameters, protocolPairs: UnsafeBufferPointer<EncodedPair>,
    _ body: (UnsafeBufferPointer<UInt8>) throws(OAuthError) -> R
  ) throws(OAuthError) -> R {
    try with(
      method: method, room: target.uriCapacity + parameters.length(merging: protocolPairs, forBaseString: true),
      uri: { target.appendURI(to: &$0, encoded: true) }, parameters: { parameters.append(to: &$0, merging: protocolPairs, forBaseString: true) }, body
    )
  }

  /// The same from the two strings the public stages produce.
  static func make(method: String, baseStringURI: String, normalizedParameters: String) -> String {
    var uri = baseStringURI, normalized = normalizedParameters
    return uri.withUTF8 { uri in
      normalized.withUTF8 { normalized in
        // Nothing here throws: the closures only append.
        (try? with(
          method: method, room: 3 * (uri.count + normalized.count),
          uri: { $0.appendEncoded(uri) }, parameters: { $0.appendEncoded(normalized) }
        ) { String(decoding: $0, as: UTF8.self) }) ?? ""
      }
    }
  }

  /// The one writer: `enc(METHOD)&` + `uri` + `&` + `parameters`, which append their part
  /// already encoded within `room` bytes in all.
  private static func with<R>(
    method: String, room: Int, uri: (inout ByteWriter) -> Void, parameters: (inout ByteWriter) -> Void,
    _ body: (UnsafeBufferPointer<UInt8>) throws(OAuthError) -> R
  ) throws(OAuthError) -> R {
    let encodedMethod = Self.encodedMethod(method)
    let capacity = encodedMethod.count + 2 + room
    return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer throws(OAuthError) in
      var out = ByteWriter(buffer.baseAddress!, capacity: capacity)
      encodedMethod.withUnsafeBufferPointer { out.append($0) }
      out.append(UInt8(ascii: "&"))
      uri(&out)
      out.append(UInt8(ascii: "&"))
      parameters(&out)
      return try body(out.written)
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
