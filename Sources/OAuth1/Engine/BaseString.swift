import PercentEncoding

/// Stage 5 of the engine: `enc(METHOD)&enc(base string URI)&enc(normalized parameters)`,
/// written once. The signer and the verifier write the last
/// two parts straight from the request (``RequestTarget``) and the pairs in signing order
/// (``SigningOrder``); ``OAuthSignatureBaseString`` writes them from its strings.
enum BaseString {
  /// Writes the base string of a request: its method, its target, and its pairs in signing order.
  static func write(
    method: String, target: RequestTarget, order: SigningOrder, request bytes: borrowing ByteWriter, protocol protocolBytes: borrowing ByteWriter,
    _ pairs: borrowing ScratchArena.List<EncodedPair>, to out: inout ByteWriter
  ) {
    appendMethod(method, to: &out)
    out.append(UInt8(ascii: "&"))
    target.appendURI(from: bytes, to: &out, encoded: true)
    out.append(UInt8(ascii: "&"))
    order.append(request: bytes, protocol: protocolBytes, pairs, to: &out, forBaseString: true)
  }

  /// The same from the two strings the public stages produce.
  static func make(method: String, baseStringURI: String, normalizedParameters: String) -> String {
    ScratchArena.string { out in
      appendMethod(method, to: &out)
      out.append(UInt8(ascii: "&"))
      out.appendEncoded(baseStringURI)
      out.append(UInt8(ascii: "&"))
      out.appendEncoded(normalizedParameters)
    }
  }

  /// `enc(METHOD)`: the method uppercased and encoded (an ordinary method is already both).
  private static func appendMethod(_ method: String, to out: inout ByteWriter) {
    switch method {
    case "GET": out.append("GET")
    case "POST": out.append("POST")
    default:
      if isUppercase(method) { out.append(contentsOf: method) } else { out.appendEncoded(method.uppercased()) }
    }
  }

  private static func isUppercase(_ method: String) -> Bool {
    !method.isEmpty && method.utf8.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
  }
}
