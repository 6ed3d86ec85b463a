/// Base64 straight to bytes, for the signer's hot path (no Data, no String).
enum Base64Bytes {
  /// Base64 of `bytes`, percent-encoded as it travels in a header or a form (`+` `/` `=` become
  /// `%2B` `%2F` `%3D`).
  static func encodeForHeader(_ bytes: [UInt8]) -> [UInt8] {
    let groups = (bytes.count + 2) / 3
    return [UInt8](unsafeUninitializedCapacity: groups * 12) { out, count in
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
      bytes.withUnsafeBufferPointer { input in
        var index = 0
        while index < input.count {
          let first = input[index]
          let second: UInt8? = index + 1 < input.count ? input[index + 1] : nil
          let third: UInt8? = index + 2 < input.count ? input[index + 2] : nil
          put(first >> 2)
          put((first & 0x03) << 4 | (second ?? 0) >> 4)
          if let second { put((second & 0x0F) << 2 | (third ?? 0) >> 6) } else { pad() }
          if let third { put(third & 0x3F) } else { pad() }
          index += 3
        }
      }
      count = written
    }
  }

  /// The base64 symbol for a 6-bit value.
  @inline(__always)
  private static func symbol(_ value: UInt8) -> UInt8 {
    switch value {
    case 0..<26: return UInt8(ascii: "A") + value
    case 26..<52: return UInt8(ascii: "a") + value - 26
    case 52..<62: return UInt8(ascii: "0") + value - 52
    case 62: return UInt8(ascii: "+")
    default: return UInt8(ascii: "/")
    }
  }
}
