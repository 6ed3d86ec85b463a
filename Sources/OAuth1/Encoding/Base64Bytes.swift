/// Base64 straight to bytes, for the signer's hot path (no Data, no String).
enum Base64Bytes {
  /// Base64 of `bytes`, percent-encoded as it travels in a header or a form (`+` `/` `=` become
  /// `%2B` `%2F` `%3D`).
  static func encodeForHeader(_ bytes: [UInt8]) -> [UInt8] {
    bytes.withUnsafeBufferPointer { input in
      [UInt8](unsafeUninitializedCapacity: headerCapacity(input.count)) { out, count in
        guard let base = out.baseAddress else { return }
        count = encodeForHeader(input, into: base)
      }
    }
  }

  /// At most how many bytes ``encodeForHeader(_:into:)`` writes for `count` input bytes.
  static func headerCapacity(_ count: Int) -> Int { (count + 2) / 3 * 12 }

  /// Writes the header form of `input`'s base64 at `out` (room for ``headerCapacity(_:)``
  /// bytes); returns the bytes written.
  static func encodeForHeader(_ input: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
    var written = 0
    @inline(__always) func put(_ value: UInt8) {
      let character = symbol(value)
      if character == UInt8(ascii: "+") || character == UInt8(ascii: "/") {
        out[written] = UInt8(ascii: "%")
        out[written + 1] = UInt8(ascii: "2")
        out[written + 2] = character == UInt8(ascii: "+") ? UInt8(ascii: "B") : UInt8(ascii: "F")
        written += 3
      } else {
        out[written] = character
        written += 1
      }
    }
    @inline(__always) func pad() {
      out[written] = UInt8(ascii: "%")
      out[written + 1] = UInt8(ascii: "3")
      out[written + 2] = UInt8(ascii: "D")
      written += 3
    }
    var index = 0
    let count = input.count
    while index + 3 <= count {
      let first = input[index], second = input[index + 1], third = input[index + 2]
      put(first >> 2)
      put((first & 0x03) << 4 | second >> 4)
      put((second & 0x0F) << 2 | third >> 6)
      put(third & 0x3F)
      index += 3
    }
    if index < count {
      let first = input[index]
      let second: UInt8 = index + 1 < count ? input[index + 1] : 0
      put(first >> 2)
      put((first & 0x03) << 4 | second >> 4)
      if index + 1 < count { put((second & 0x0F) << 2) } else { pad() }
      pad()
    }
    return written
  }

  /// The base64 symbol for a 6-bit value.
  @inline(__always)
  private static func symbol(_ value: UInt8) -> UInt8 {
    let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    return alphabet.utf8Start[Int(value & 0x3F)]
  }
}
