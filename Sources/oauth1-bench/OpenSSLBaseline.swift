import COpenSSL

/// The floor every signing figure is compared with: OpenSSL's own one-shot `HMAC()` over the
/// same base string and key, measured in the same process and run.
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
}
