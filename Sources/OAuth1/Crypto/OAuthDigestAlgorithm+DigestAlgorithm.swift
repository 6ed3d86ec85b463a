internal import CryptoPrimitives

extension OAuthDigestAlgorithm {
  /// The same digest in `CryptoPrimitives`.
  var primitive: DigestAlgorithm {
    switch self {
    case .sha1: .sha1
    case .sha256: .sha256
    case .sha512: .sha512
    }
  }
}
