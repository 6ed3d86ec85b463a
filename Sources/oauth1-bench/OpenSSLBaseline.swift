import COpenSSL

/// The floors every signing figure is compared with, measured in the same process and run:
/// OpenSSL's own one-shot `HMAC()` over the same base string and key, and the crypto alone as
/// the signer does it (the shim's low-level HMAC), which no signer of this request can go below.
enum OpenSSLBaseline {
  @inline(never)
  static func hmacSHA1(key: [UInt8], message: [UInt8]) {
    var output = [UInt8](repeating: 0, count: 64)
    var length: UInt32 = 0
    key.withUnsafeBufferPointer { key in
      message.withUnsafeBufferPointer { message in
        output.withUnsafeMutableBufferPointer { out in
          _ = HMAC(EVP_sha1(), key.baseAddress, Int32(key.count), message.baseAddress, message.count, out.baseAddress, &length)
        }
      }
    }
    blackHole(output)
  }

  /// The cold signer's crypto: the key hashed (when longer than a block) and both pads
  /// compressed, then the MAC of `message`.
  @inline(never)
  static func preparedHMACSHA1(key: [UInt8], message: [UInt8]) {
    var state = oauth1_hmac_sha1_key()
    key.withUnsafeBufferPointer { oauth1_hmac_sha1_prepare(&state, $0.baseAddress, $0.count) }
    hmacSHA1(prepared: state, message: message)
  }

  /// The reused signer's crypto: the MAC of `message` with pad states hashed once.
  @inline(never)
  static func hmacSHA1(prepared state: oauth1_hmac_sha1_key, message: [UInt8]) {
    // On the stack: the floor allocates nothing.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { output in
      withUnsafePointer(to: state) { state in
        message.withUnsafeBufferPointer { oauth1_hmac_sha1_sign(state, $0.baseAddress, $0.count, output.baseAddress) }
      }
      blackHole(output[0])
    }
  }

  /// Pad states hashed once, for ``hmacSHA1(prepared:message:)``.
  static func prepare(key: [UInt8]) -> oauth1_hmac_sha1_key {
    var state = oauth1_hmac_sha1_key()
    key.withUnsafeBufferPointer { oauth1_hmac_sha1_prepare(&state, $0.baseAddress, $0.count) }
    return state
  }
}
