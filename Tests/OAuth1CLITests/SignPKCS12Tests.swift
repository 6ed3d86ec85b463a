import Foundation
import TestSupport
import Testing

/// `oauth1 sign --rsa-key key.p12`: a PKCS#12 key made by the `openssl` command, its signatures
/// checked by `openssl dgst -verify` and by Python's cryptography (pinned) with the
/// certificate's public key; the password from each place, and never printed.
@Suite("oauth1 sign with a PKCS#12 key", .tags(.peers, .processes), .tier(.peers, .processes))
struct SignPKCS12Tests {
  static let password = "p12-Secret-7b1f"
  static let url = "https://api.example.com/v1/payments?amount=10&currency=EUR"

  /// A key, its self-signed certificate and their PKCS#12 bundle in a fresh folder.
  struct Bundle {
    let folder: URL
    var p12: URL { folder.appendingPathComponent("key.p12") }
    var keyPEM: URL { folder.appendingPathComponent("key.pem") }
    var certificate: URL { folder.appendingPathComponent("cert.pem") }
    var passwordFile: URL { folder.appendingPathComponent("password.txt") }

    static func make() async throws -> Bundle {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oauth1-p12-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let bundle = Bundle(folder: folder)
      try Data("\(SignPKCS12Tests.password)\n".utf8).write(to: bundle.passwordFile)
      try await openssl([
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", bundle.keyPEM.path, "-out", bundle.certificate.path, "-days", "2",
        "-subj", "/CN=oauth1 PKCS12 test",
      ])
      try await openssl([
        "pkcs12", "-export", "-inkey", bundle.keyPEM.path, "-in", bundle.certificate.path, "-out", bundle.p12.path, "-passout",
        "file:\(bundle.passwordFile.path)",
      ])
      return bundle
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
  }

  @discardableResult
  static func openssl(_ arguments: [String]) async throws -> ProcessResult {
    let result = try await ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["openssl"] + arguments, timeout: 60)
    guard result.status == 0 else { throw CLIFailure(description: "openssl \(arguments.first ?? "") exited \(result.status): \(result.stderr)") }
    return result
  }

  func signArguments(_ method: String, key: URL) -> [String] {
    [
      "--method", "POST", "--url", Self.url, "--form", "reference=order 42", "--consumer-key", "mastercard-consumer-key",
      "--signature-method", method, "--rsa-key", key.path, "--nonce", "n0nce", "--timestamp", "1790000000",
    ]
  }

  @Test func signaturesVerifyWithOpenSSLAndPythonCryptography() async throws {
    let bundle = try await Bundle.make()
    defer { bundle.remove() }
    var cases: [[String: String]] = []
    for (method, digest) in [("RSA-SHA1", "SHA-1"), ("RSA-SHA256", "SHA-256")] {
      let json = try await signJSON(signArguments(method, key: bundle.p12) + ["--key-password-file", bundle.passwordFile.path])
      let base = try #require(json["signature_base_string"] as? String)
      let signature = try #require(json["signature"] as? String)
      cases.append(["base_string": base, "signature": signature, "digest": digest])

      // openssl dgst over the base string's bytes, with the certificate's public key.
      let publicKey = bundle.folder.appendingPathComponent("public.pem")
      let exported = try await Self.openssl(["x509", "-in", bundle.certificate.path, "-pubkey", "-noout"])
      try Data(exported.stdout.utf8).write(to: publicKey)
      let baseFile = bundle.folder.appendingPathComponent("base.txt")
      let signatureFile = bundle.folder.appendingPathComponent("signature.bin")
      try Data(base.utf8).write(to: baseFile)
      try #require(Data(base64Encoded: signature)).write(to: signatureFile)
      let dgst = digest == "SHA-1" ? "-sha1" : "-sha256"
      let verified = try await Self.openssl(["dgst", dgst, "-verify", publicKey.path, "-signature", signatureFile.path, baseFile.path])
      #expect(verified.stdout.contains("Verified OK"), "openssl: \(verified.stdout)")

      // The same key as PEM signs the same bytes (PKCS #1 v1.5 is deterministic).
      let fromPEM = try await signJSON(signArguments(method, key: bundle.keyPEM).map { $0 == "--rsa-key" ? "--private-key" : $0 })
      #expect(fromPEM["signature"] as? String == signature)
    }

    let request: [String: Any] = [
      "certificate_pem": try String(contentsOf: bundle.certificate, encoding: .utf8),
      "pkcs12_base64": try Data(contentsOf: bundle.p12).base64EncodedString(), "password": Self.password, "cases": cases,
    ]
    let output = try await PythonPeer.run(script: "pkcs12_verify.py", input: JSONSerialization.data(withJSONObject: request))
    let results = try #require(JSONSerialization.jsonObject(with: output) as? [[String: Bool]])
    #expect(results.count == 2)
    for result in results {
      #expect(result["verified"] == true)
      #expect(result["resigned_equal"] == true)
    }
  }

  /// The password from the option, the environment and the file sign alike, and none of them
  /// shows up in what the command prints.
  @Test func passwordFromEachPlaceAndNeverPrinted() async throws {
    let bundle = try await Bundle.make()
    defer { bundle.remove() }
    let arguments = ["sign"] + signArguments("RSA-SHA1", key: bundle.p12)
    var environment = ProcessInfo.processInfo.environment
    let fromFile = try await oauth1(arguments + ["--key-password-file", bundle.passwordFile.path])
    let fromOption = try await oauth1(arguments + ["--key-password", Self.password])
    environment["OAUTH1_KEY_PASSWORD"] = Self.password
    let fromEnvironment = try await oauth1(arguments, environment: environment)
    for result in [fromFile, fromOption, fromEnvironment] {
      #expect(result.status == 0, "\(result.stderr)")
      #expect(!result.stdout.contains(Self.password) && !result.stderr.contains(Self.password))
    }
    #expect(fromFile.stdout == fromOption.stdout && fromOption.stdout == fromEnvironment.stdout)
  }

  @Test func wrongPasswordIsATypedErrorWithoutThePassword() async throws {
    let bundle = try await Bundle.make()
    defer { bundle.remove() }
    let wrong = "not-the-password-91c"
    let result = try await oauth1(["sign"] + signArguments("RSA-SHA1", key: bundle.p12) + ["--key-password", wrong])
    #expect(result.status != 0)
    #expect(result.stderr.contains("the password does not open the PKCS#12 key"), "\(result.stderr)")
    #expect(!result.stderr.contains(wrong) && !result.stdout.contains(wrong))

    let none = try await oauth1(["sign"] + signArguments("RSA-SHA1", key: bundle.p12))
    #expect(none.status != 0)
    #expect(none.stderr.contains("needs its password: give --key-password-file FILE or env OAUTH1_KEY_PASSWORD"), "\(none.stderr)")
  }

  @Test func corruptFileAndCertificatesOnlyAreExplained() async throws {
    let bundle = try await Bundle.make()
    defer { bundle.remove() }
    let corrupt = bundle.folder.appendingPathComponent("corrupt.p12")
    var bytes = try Data(contentsOf: bundle.p12)
    bytes = bytes.prefix(bytes.count / 2)
    try bytes.write(to: corrupt)
    let damaged = try await oauth1(["sign"] + signArguments("RSA-SHA1", key: corrupt) + ["--key-password-file", bundle.passwordFile.path])
    #expect(damaged.status != 0)
    #expect(damaged.stderr.contains("The PKCS#12 file could not be read: not a PKCS#12 file"), "\(damaged.stderr)")
    #expect(!damaged.stderr.contains(Self.password))

    let certificatesOnly = bundle.folder.appendingPathComponent("certificates.p12")
    try await Self.openssl([
      "pkcs12", "-export", "-nokeys", "-in", bundle.certificate.path, "-out", certificatesOnly.path, "-passout", "file:\(bundle.passwordFile.path)",
    ])
    let keyless = try await oauth1(
      ["sign"] + signArguments("RSA-SHA1", key: certificatesOnly) + ["--key-password-file", bundle.passwordFile.path])
    #expect(keyless.status != 0)
    #expect(keyless.stderr.contains("holds certificates but no private key"), "\(keyless.stderr)")
    #expect(!keyless.stderr.contains(Self.password))

    // RC2 and 3DES, which OpenSSL 3 decrypts only with its legacy provider: the error says how
    // to re-encrypt the file.
    let legacy = bundle.folder.appendingPathComponent("legacy.p12")
    try await Self.openssl([
      "pkcs12", "-export", "-legacy", "-inkey", bundle.keyPEM.path, "-in", bundle.certificate.path, "-out", legacy.path, "-passout",
      "file:\(bundle.passwordFile.path)",
    ])
    let old = try await oauth1(["sign"] + signArguments("RSA-SHA1", key: legacy) + ["--key-password-file", bundle.passwordFile.path])
    #expect(old.status != 0)
    #expect(old.stderr.contains("openssl pkcs12 -legacy -in old.p12 -nodes | openssl pkcs12 -export -out new.p12"), "\(old.stderr)")
    #expect(!old.stderr.contains(Self.password))
  }

  @Test func passwordOptionsAreRefusedForAPEMKey() async throws {
    let bundle = try await Bundle.make()
    defer { bundle.remove() }
    let result = try await oauth1(["sign"] + signArguments("RSA-SHA1", key: bundle.keyPEM) + ["--key-password", "x"])
    #expect(result.status != 0)
    #expect(result.stderr.contains("--key-password is for a PKCS#12 key"), "\(result.stderr)")
  }
}
