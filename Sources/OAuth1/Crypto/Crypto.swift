internal import CryptoPrimitives

/// The signer's side of `CryptoPrimitives`: the engine's ``ByteWriter`` lends it the bytes of
/// a range, or room it checks, through the writer's own hooks (so the writer, ``ScratchArena``
/// and `CryptoPrimitives` remain the only code that touches memory through pointers), and a
/// `CryptoError` comes back as the ``OAuthError`` that says the same.
enum Crypto {
  /// The digest of `data`.
  static func digest(_ algorithm: OAuthDigestAlgorithm, data: some Collection<UInt8>) throws(OAuthError) -> [UInt8] {
    try OAuthError.mapping { () throws(CryptoError) in try algorithm.primitive.digest(of: data) }
  }

  /// Appends `count` bytes from a cryptographically secure generator and returns where they are.
  static func appendRandom(_ count: Int, to out: inout ByteWriter) throws(OAuthError) -> Range<Int> {
    let start = out.count
    try out.appendUnsafe(upTo: count) { _, random throws(OAuthError) in
      try OAuthError.mapping { () throws(CryptoError) in try SecureRandom.fill(random) }
      return random.count
    }
    return start..<out.count
  }

  /// Whether the bytes of `range` of `a` are the UTF-8 of `b`, in time that depends only on their length.
  static func constantTimeEquals(_ a: borrowing ByteWriter, _ range: Range<Int>, _ b: String) -> Bool {
    a.withUnsafeBytes(range) { ConstantTime.equals($0, b) }
  }

  /// Overwrites what `writer` wrote (key material) in a way the optimizer does not remove.
  static func wipe(_ writer: inout ByteWriter) {
    writer.withUnsafeMutableWritten { SecureMemory.wipe($0) }
  }
}
