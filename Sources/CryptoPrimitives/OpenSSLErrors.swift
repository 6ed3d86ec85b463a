internal import COpenSSL

/// OpenSSL's thread-local error queue, read into a ``CryptoError``.
enum OpenSSLErrors {
  /// The failure of `operation`, with the oldest error on the queue as its reason.
  static func failure(_ operation: String) -> CryptoError {
    .libraryFailure(operation: operation, reason: lastReason())
  }

  /// The text of the oldest error on the queue, which is then cleared so that it cannot be
  /// reported again by an unrelated call.
  static func lastReason() -> String {
    let code = ERR_get_error()
    defer { ERR_clear_error() }
    guard code != 0 else { return "no reason given" }
    var buffer = [CChar](repeating: 0, count: 256)
    // Invariant: OpenSSL writes at most `buffer.count` bytes, the last a NUL.
    ERR_error_string_n(code, &buffer, buffer.count)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
