internal import COpenSSL

/// The digests the package uses: SHA-1, SHA-256 and SHA-512. `public` (in a module that is no
/// product) for ``HMACKey``'s inlinable `sign`, as is `byteCount`.
public enum DigestAlgorithm: CaseIterable, Sendable {
  /// SHA-1: 20 bytes.
  case sha1
  /// SHA-256: 32 bytes.
  case sha256
  /// SHA-512: 64 bytes.
  case sha512

  /// The length of a digest, in bytes: 20, 32 or 64.
  @inlinable
  public var byteCount: Int {
    switch self {
    case .sha1: 20
    case .sha256: 32
    case .sha512: 64
    }
  }

  /// The digest of `data`, in one call.
  package func digest(of data: some Collection<UInt8>) throws(CryptoError) -> [UInt8] {
    var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    // Invariant: `out` holds EVP_MAX_MD_SIZE bytes, the most any digest writes.
    let ok = withContiguousBytes(data) { buffer in
      output.withUnsafeMutableBufferPointer { out in
        EVP_Digest(buffer.baseAddress, buffer.count, out.baseAddress, &length, evp, nil) == 1
      }
    }
    guard ok else { throw OpenSSLErrors.failure("digest") }
    return Array(output.prefix(Int(length)))
  }

  /// OpenSSL's description of this digest (static, never freed).
  var evp: OpaquePointer? {
    switch self {
    case .sha1: EVP_sha1()
    case .sha256: EVP_sha256()
    case .sha512: EVP_sha512()
    }
  }
}
