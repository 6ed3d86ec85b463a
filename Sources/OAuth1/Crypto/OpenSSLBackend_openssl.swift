internal import COpenSSL

/// ``CryptoBackend`` on the system's OpenSSL `libcrypto` (1.1.1 or 3.x).
enum OpenSSLBackend: CryptoBackend {
  static func digest(_ algorithm: OAuthDigestAlgorithm, data: some Collection<UInt8>) throws(OAuthError) -> [UInt8] {
    var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    let ok = withContiguousBytes(data) { buffer in
      output.withUnsafeMutableBufferPointer { out in
        EVP_Digest(buffer.baseAddress, buffer.count, out.baseAddress, &length, md(algorithm), nil) == 1
      }
    }
    guard ok else { throw failure("digest") }
    return Array(output.prefix(Int(length)))
  }

  static func appendRandom(_ count: Int, to out: inout ByteWriter) throws(OAuthError) -> Range<Int> {
    let start = out.count
    try out.appendUnsafe(room: count) { _, room throws(OAuthError) in
      guard room.isEmpty || RAND_bytes(room.baseAddress, Int32(room.count)) == 1 else { throw failure("random generation") }
      return room.count
    }
    return start..<out.count
  }

  static func constantTimeEquals(_ a: borrowing ByteWriter, _ range: Range<Int>, _ b: String) -> Bool {
    a.withUnsafeBytes(range) { a in withContiguousBytes(b.utf8) { b in constantTimeEquals(a, b) } }
  }

  static func constantTimeEquals(_ a: [UInt8], _ b: String) -> Bool {
    a.withUnsafeBufferPointer { a in withContiguousBytes(b.utf8) { b in constantTimeEquals(a, b) } }
  }

  private static func constantTimeEquals(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    guard !a.isEmpty else { return true }
    return CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0
  }

  static func wipe(_ writer: inout ByteWriter) {
    writer.withUnsafeMutableWritten { if let base = $0.baseAddress { oauth1_wipe(base, $0.count) } }
  }

  static func wipe(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBufferPointer { if let base = $0.baseAddress { oauth1_wipe(base, $0.count) } }
  }

  static func md(_ algorithm: OAuthDigestAlgorithm) -> OpaquePointer? {
    switch algorithm {
    case .sha1: return EVP_sha1()
    case .sha256: return EVP_sha256()
    case .sha512: return EVP_sha512()
    }
  }

  /// The oldest error on OpenSSL's thread-local queue, which is then cleared so that it
  /// cannot be reported again by an unrelated call.
  static func failure(_ operation: String) -> OAuthError {
    .cryptoFailure(operation: operation, reason: lastErrorReason())
  }

  static func lastErrorReason() -> String {
    let code = ERR_get_error()
    defer { ERR_clear_error() }
    guard code != 0 else { return "no reason given" }
    var buffer = [CChar](repeating: 0, count: 256)
    ERR_error_string_n(code, &buffer, buffer.count)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

/// Runs `body` on contiguous bytes, copying only when `bytes` is not contiguous already.
func withContiguousBytes<R>(_ bytes: some Collection<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
  if let result = bytes.withContiguousStorageIfAvailable(body) { return result }
  return Array(bytes).withUnsafeBufferPointer(body)
}
