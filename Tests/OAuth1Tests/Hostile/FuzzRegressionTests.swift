import Foundation
import OAuth1
import TestSupport
import Testing

/// Inputs the fuzz targets (`.ci/fuzz`) found, kept as regression tests.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
  @Test func rawNonASCIIAndPlusesInAQuery() throws {
    let consumer = Credentials(key: "fuzz-key", secret: "fuzz-secret")
    let options = OAuthSignatureGenerator.Options(nonce: "fuzz-nonce", timestamp: 1_700_000_000)
    let request = OAuthRequest(
      method: "POST", url: "https://api.example.com/1/items?\u{0746}++=\u{FFFD}\u{FFFD}\u{FFFD}+", body: Data(),
      contentType: "application/x-www-form-urlencoded")
    let signed = try OAuthSigner(consumer: consumer, configuration: options.configuration).signedRequest(
      for: request, nonce: options.nonce, timestamp: options.timestamp)
    let generator = try OAuthSignatureGenerator(consumerCredentials: consumer, request: request, options: options)
    #expect(signed.signatureBaseString == generator.signatureBaseString)
  }

  /// A PKCS#8 key with one byte changed by the fuzzer: OpenSSL reads it, but its signatures
  /// do not verify with its own public half. It is refused when loaded.
  @Test func aDamagedPrivateKeyIsRefused() {
    let damaged = """
      -----BEGIN PRIVATE KEY-----
      MIICdgIBADANBgkqhkiG9w0BAQEFAASCAmAwggJcAgEAAoGBAMLHyLomj1hph/Je
      MpabvH4+xrn4w95tO5M+tE+4BwCaRSjlB9SYPzN5MKLH9dq8mD7pOKnqrV1TUJcg
      7DoQzotMvNAlBrY4JxBgw5UtTYk3HKot4/Nw4KkCz7F3vaECZkcBtTRBx3nm9Qdj
      HqLUuG0YqADC973F1zD2u001BFaVAgMBAAECgYBoOjnaCpo4CDh75BYT64Ag2fzD
      NS+yjScM8sfPxLzSgLqzWGMpStK++4GgCXowsyyQtYHhwrdEMjn0tORTafzrM2vG
      XJ7M0BKl0VGZUWqB41TZ67Q0C57665V1kvLOCUPbipKg1FqFD/PgodlYroczzt8Z
      xDCvqZ1/bGjSDdybIQJBAPXoK1UAFjzASGQ25BWvzIsQA35WQD/sk9zBI8W90bvg
      tJaKjiizOxYY5aQ4dGMUvADKb5myzDKxh52fAUBdSZ0CQQDKxmkcdj6Umdv+60O5
      oZxsHI5FVtI5b4yQQp9bqv4H4dRVYemmvNN7aGNBxyPJWTc+KzCATXpyE9H+nKl2
      XAtZAkEA0vtIulwhuCvtsHXcCbNUlne915Ze97meP4hCjfVHzp+DsandQJROfK4N
      0XFSgnQWvcLyL3fVdSUWSylSZIvljQJAMzpvIbap1scMMlnjkUlICHQqaVAm6kXJ
      QETkl7caWIlwKGYFLo+z6hCUSvEFyo+UiktFBJUOYzWorueLVJCqeQJAVZkWDDyZ
      UnsKewQV5/8duAnZ2+jDloHqdrurdyRxbb6naGTVEvPCLxVnYpJGgBMSy+JNerp5
      K+DH97VDev7iew==
      -----END PRIVATE KEY-----
      """
    #expect {
      try RSAPrivateKey(pem: damaged)
    } throws: { error in
      guard case OAuthError.invalidKey(let reason) = error else { return false }
      return reason.contains("inconsistent")
    }
  }

  /// Timed in this thread's processor time: other processes on a busy machine do not stretch it.
  @Test func checkingAKeyTakesLittleTime() throws {
    let start = TestTiming.threadCPUSeconds()
    let pem = try SignatureTests.publishedRSAKey()
    for _ in 0..<10 { _ = try RSAPrivateKey(pem: pem) }
    let spent = TestTiming.threadCPUSeconds() - start
    #expect(spent < TestTiming.seconds(2), "ten key checks took \(spent) s of processor time")
  }
}
