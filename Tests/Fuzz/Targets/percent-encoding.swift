// Fuzz target: percent-encoding. Properties: decode(encode(s)) == s for any text; a decoded
// string survives encode-then-decode; byte decoding never crashes; encoding uses only the
// unreserved set and uppercase %XX.
import Foundation

@testable import PercentEncoding

// libFuzzer's entry point in the fuzz build (.ci/fuzz defines FUZZING); in `swift test` the
// same function runs over the stored corpus (Tests/Fuzz/FuzzPropertyTests.swift).
#if FUZZING
  @_cdecl("LLVMFuzzerTestOneInput")
#endif
public func fuzzPercentEncoding(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: start, count: count)
  let text = String(decoding: bytes, as: UTF8.self)

  let encoded = PercentEncoding.encode(text)
  require(PercentEncoding.decode(encoded) == text, "decode(encode(x)) != x")
  var index = encoded.utf8.startIndex
  let utf8 = encoded.utf8
  while index < utf8.endIndex {
    let byte = utf8[index]
    if byte == UInt8(ascii: "%") {
      let high = utf8[utf8.index(after: index)], low = utf8[utf8.index(index, offsetBy: 2)]
      require(PercentEncoding.hexValue(high) != nil && PercentEncoding.hexValue(low) != nil && !(high >= 97) && !(low >= 97), "not %XX uppercase")
      index = utf8.index(index, offsetBy: 3)
    } else {
      require(PercentEncoding.isUnreserved(byte), "a reserved byte left unencoded")
      index = utf8.index(after: index)
    }
  }

  for plus in [false, true] {
    _ = PercentEncoding.decodeBytes(bytes, plusAsSpace: plus)
    if let decoded = PercentEncoding.decode(text, plusAsSpace: plus) {
      require(PercentEncoding.decode(PercentEncoding.encode(decoded)) == decoded, "a decoded value does not round-trip")
    }
  }
  require(PercentEncoding.decodeBytes(Array(PercentEncoding.encode(bytes: bytes).utf8)) == Array(bytes), "bytes do not round-trip")
  return 0
}
