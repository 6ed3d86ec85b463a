import PercentEncoding

/// The one base64 encoder of the package, writing into memory the caller owns: the signature
/// and body hash (standard alphabet, padded), the same percent-encoded as they travel in a
/// header or a form, and the nonce (URL-safe alphabet, unpadded).
///
/// ```swift
/// var out = [UInt8](repeating: 0, count: Base64.capacity(3, .standard))
/// let count = out.withUnsafeMutableBufferPointer { Base64.encode(input, .standard, into: $0.baseAddress!) }
/// ```
enum Base64 {
  struct Form {
    /// The 64 symbols, in value order.
    let alphabet: StaticString
    let padded: Bool
    /// Whether `+`, `/` and `=` are written as `%2B`, `%2F` and `%3D`.
    let percentEncoded: Bool

    static let standard = Form(alphabet: standardAlphabet, padded: true, percentEncoded: false)
    static let header = Form(alphabet: standardAlphabet, padded: true, percentEncoded: true)
    static let urlSafeUnpadded = Form(
      alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", padded: false, percentEncoded: false)

    private static let standardAlphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
  }

  /// At most how many bytes ``encode(_:_:into:)`` writes for `count` input bytes.
  static func capacity(_ count: Int, _ form: Form) -> Int {
    (count + 2) / 3 * (form.percentEncoded ? 12 : 4)
  }

  /// Writes `input` in `form` at `out`, which must have room for ``capacity(_:_:)`` bytes;
  /// returns the bytes written.
  static func encode(_ input: UnsafeBufferPointer<UInt8>, _ form: Form, into out: UnsafeMutablePointer<UInt8>) -> Int {
    let symbols = form.alphabet.utf8Start
    var written = 0
    @inline(__always) func put(_ character: UInt8) {
      if form.percentEncoded && (character == UInt8(ascii: "+") || character == UInt8(ascii: "/") || character == UInt8(ascii: "=")) {
        PercentEncoding.writeEscape(character, to: out + written)
        written &+= 3
      } else {
        out[written] = character
        written &+= 1
      }
    }
    var index = 0
    let count = input.count
    while index + 3 <= count {
      let value = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
      put(symbols[Int(value >> 18 & 0x3F)])
      put(symbols[Int(value >> 12 & 0x3F)])
      put(symbols[Int(value >> 6 & 0x3F)])
      put(symbols[Int(value & 0x3F)])
      index += 3
    }
    if index < count {
      let twoLeft = index + 1 < count
      let value = UInt32(input[index]) << 16 | (twoLeft ? UInt32(input[index + 1]) << 8 : 0)
      put(symbols[Int(value >> 18 & 0x3F)])
      put(symbols[Int(value >> 12 & 0x3F)])
      if twoLeft { put(symbols[Int(value >> 6 & 0x3F)]) } else if form.padded { put(UInt8(ascii: "=")) }
      if form.padded { put(UInt8(ascii: "=")) }
    }
    return written
  }

  /// `bytes` in `form`, as a String.
  static func string(_ bytes: some Sequence<UInt8>, _ form: Form) -> String {
    let bytes = bytes as? [UInt8] ?? Array(bytes)
    return bytes.withUnsafeBufferPointer { input in
      String(unsafeUninitializedCapacity: capacity(input.count, form)) { encode(input, form, into: $0.baseAddress!) }
    }
  }
}
