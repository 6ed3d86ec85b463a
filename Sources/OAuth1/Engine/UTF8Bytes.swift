import Foundation

/// Lends a String's UTF-8 bytes to code that throws ``OAuthError`` (the standard library's
/// `withUTF8` rethrows untyped errors). A native String lends its own storage; any other is
/// copied once.
func withUTF8Bytes<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) throws(OAuthError) -> R) throws(OAuthError) -> R {
  let outcome: Result<R, OAuthError>? = text.utf8.withContiguousStorageIfAvailable { bytes in
    Result { () throws(OAuthError) in try body(bytes) }
  }
  if let outcome { return try outcome.get() }
  return try Array(text.utf8).withUnsafeBufferPointer { bytes throws(OAuthError) in try body(bytes) }
}

/// `bytes` as a String if they are valid UTF-8, else `nil`. ASCII, the usual case, is
/// recognized without the standard library's generic validation (which looks up type
/// metadata on every call).
func utf8String(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
  var ascii = true
  for byte in bytes where byte >= 0x80 {
    ascii = false
    break
  }
  if ascii { return String(decoding: bytes, as: UTF8.self) }
  return String(validating: bytes, as: UTF8.self)
}

/// How many times `byte` occurs in `bytes`, found by `memchr` (the bytes counted are rare: a
/// form's `&`, a value's `%`).
func occurrences(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
  guard let base = bytes.baseAddress else { return 0 }
  var count = 0
  var offset = 0
  while offset < bytes.count, let found = memchr(base + offset, Int32(byte), bytes.count - offset) {
    count += 1
    offset = UnsafeRawPointer(found) - UnsafeRawPointer(base) + 1
  }
  return count
}
