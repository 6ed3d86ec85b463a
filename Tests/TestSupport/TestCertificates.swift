import Foundation

/// A throwaway CA, a server certificate for 127.0.0.1 and localhost, and a client certificate,
/// made with the `openssl` command in a temporary folder (removed when released), for TLS tests.
public final class TestCertificates: Sendable {
  /// The folder that holds them.
  public let folder: URL
  /// `ca.crt`, `server.crt`, `server.key`, `client.crt`, `client.key` in ``folder``.
  public func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  /// Makes them (EC P-256 keys, valid for two days).
  public init() async throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("oauth1-tls-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    try await openssl(
      ["req", "-x509"] + key + [
        "-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=oauth1 test CA",
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign",
      ])
    for (name, names) in [("server", "subjectAltName=IP:127.0.0.1,DNS:localhost"), ("client", "extendedKeyUsage=clientAuth")] {
      try await openssl(["req"] + key + ["-keyout", "\(name).key", "-out", "\(name).csr", "-subj", "/CN=oauth1 test \(name)"])
      try Data(names.utf8).write(to: folder.appendingPathComponent("\(name).ext"))
      try await openssl([
        "x509", "-req", "-in", "\(name).csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out", "\(name).crt", "-days", "2",
        "-extfile", "\(name).ext",
      ])
    }
  }

  deinit { try? FileManager.default.removeItem(at: folder) }

  private func openssl(_ arguments: [String]) async throws {
    // A time limit for a hung command only: one `openssl req` takes milliseconds, but a machine
    // busy with the rest of the suite has been seen to take more than 30 s to reap it.
    let result = try await ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["openssl"] + arguments.map(absolute), timeout: 180)
    guard result.status == 0 else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "openssl \(arguments.first ?? "") failed: \(result.stderr)"])
    }
  }

  /// A file name of this folder made absolute (the command runs elsewhere).
  private func absolute(_ argument: String) -> String {
    argument.range(of: #"^[a-z]+\.(key|crt|csr|ext)$"#, options: .regularExpression) != nil ? path(argument) : argument
  }
}
