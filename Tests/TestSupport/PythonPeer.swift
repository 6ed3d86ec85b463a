import Foundation

/// Python's `oauthlib`, the independent OAuth 1.0a implementation the tests compare against.
///
/// It is installed by the tests themselves, pinned, into the ignored `.test-deps/python`
/// folder, once per requirement set, and never imported from the system's site-packages.
public enum PythonPeer {
  /// The pinned packages: oauthlib and what its RSA methods need, and twitter-text-parser (a
  /// port of Twitter's own post counter).
  public static let requirements = [
    "oauthlib==3.3.1", "PyJWT==2.10.1", "cryptography==45.0.7", "cffi==1.17.1", "pycparser==2.22", "twitter-text-parser==3.0.0",
  ]

  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  /// The folder the packages are installed in, installing them on first use.
  public static func sitePackages() throws -> URL {
    try installation.get()
  }

  /// Runs `Tests/Peers/<script>` with the pinned packages, feeding `input` on stdin, and
  /// returns its stdout. A non-zero exit is a ``Failure`` that carries the script's stderr.
  public static func run(script: String, input: Data, timeout: Double = 300) throws -> Data {
    let site = try sitePackages()
    var environment = ProcessInfo.processInfo.environment
    environment["PYTHONPATH"] = site.path
    environment["PYTHONDONTWRITEBYTECODE"] = "1"
    environment["PYTHONNOUSERSITE"] = "1"
    let result = try ProcessRunner.run(
      python, ["python3", "-s", PackagePaths.peers.appendingPathComponent(script).path],
      stdin: input, environment: environment, timeout: timeout)
    guard result.status == 0 else {
      throw Failure(description: "Tests/Peers/\(script) exited with \(result.status):\n\(result.stderr)")
    }
    return Data(result.stdout.utf8)
  }

  private static let python = URL(fileURLWithPath: "/usr/bin/env")

  private static let installation: Result<URL, any Error> = Result {
    let folder = PackagePaths.testDependencies.appendingPathComponent("python")
    let marker = folder.appendingPathComponent(".requirements")
    let wanted = requirements.joined(separator: "\n")
    if let installed = try? String(contentsOf: marker, encoding: .utf8), installed == wanted {
      return folder
    }
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let result = try ProcessRunner.run(
      python,
      [
        "python3", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-input",
        "--only-binary=:all:", "--target", folder.path,
      ] + requirements,
      timeout: 600)
    guard result.status == 0 else {
      throw Failure(
        description: """
          Could not install the pinned Python peer (\(requirements.joined(separator: " "))) into \(folder.path): \
          pip exited with \(result.status). It needs python3 with pip and access to PyPI.
          \(result.stderr.suffix(2000))
          """)
    }
    try wanted.write(to: marker, atomically: true, encoding: .utf8)
    return folder
  }
}
