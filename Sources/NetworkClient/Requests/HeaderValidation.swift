extension HTTPHeaders {
  /// Why the first field that cannot be sent as it is fails, or `nil` when every one can: a name
  /// must be an RFC 9110 token (letters, digits and the 15 symbols of its `tchar`), and a value may hold no
  /// CR, LF or NUL. Checked on bytes, not `Character`s (Swift reads `"\r\n"` as one Character,
  /// equal to neither `"\r"` nor `"\n"`), so that a value from the network, such as a token
  /// holding `"\r\nX-Injected: 1"`, can never add a header line or smuggle a second request.
  ///
  /// ``NetworkClient`` refuses such a request with ``NetworkError/invalidRequest(reason:)``
  /// (never retried), and both transports check again before anything is sent. The reason
  /// names the field, never its value (which may be a secret).
  ///
  /// ```swift
  /// let headers: HTTPHeaders = ["Authorization": "Bearer tok\r\nX-Injected: 1"]
  /// headers.invalidFieldReason  // "the header Authorization holds a line break or NUL ..."
  /// ```
  public var invalidFieldReason: String? {
    for field in fields {
      guard !field.name.isEmpty, field.name.utf8.allSatisfy(Self.isTokenByte) else {
        return
          "the header name \"\(field.name.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? String($0) : "?" }.joined())\" is not an HTTP token"
      }
      if field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) {
        return "the header \(field.name) holds a line break or NUL, which would end the header or inject another; it was not sent"
      }
    }
    return nil
  }

  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
    default: return "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
  }
}
