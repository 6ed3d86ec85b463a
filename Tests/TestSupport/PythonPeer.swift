import Foundation

/// Python's `oauthlib`, the independent OAuth 1.0a implementation the tests compare against.
///
/// It is installed by the tests themselves, pinned, into the ignored `.test-deps/python`
/// folder, once per requirement set, and never imported from the system's site-packages.
/// Peers with heavy dependencies of their own live in a ``Requirements`` set of their own
/// (`.test-deps/python-<name>`), so that a test which needs only oauthlib never installs them.
public enum PythonPeer {
  /// A named, pinned set of packages, installed into a folder of its own on first use.
  public struct Requirements: Sendable, Hashable {
    /// The folder's suffix: `.test-deps/python` for the default set, `python-<name>` otherwise.
    public let name: String
    /// The pinned packages, `name==version` each, installed from wheels only.
    public let packages: [String]
    /// Pinned pure-Python packages that PyPI has only as source (no wheel), installed after
    /// `packages` from their source archives with `--no-deps`: their dependencies must be pinned
    /// in `packages`.
    public let sources: [String]

    /// A set called `name` of the pinned `packages` (wheels) and `sources` (source archives).
    public init(name: String, packages: [String], sources: [String] = []) {
      self.name = name
      self.packages = packages
      self.sources = sources
    }

    /// oauthlib and what its RSA methods need, and twitter-text-parser (a port of Twitter's own
    /// post counter).
    public static let oauthlib = Requirements(
      name: "",
      packages: [
        "oauthlib==3.3.1", "PyJWT==2.10.1", "cryptography==45.0.7", "cffi==1.17.1", "pycparser==2.22",
        "twitter-text-parser==3.0.0",
      ])

    /// twarc-csv 0.7.2, the table `tweets export` must equal, and what it runs on: twarc 2.14.0
    /// (its `ensure_flattened`) and pandas 2.0.3 (twarc-csv calls `DataFrame.applymap`, which
    /// pandas 3 removed), each dependency pinned. twarc-csv is published only as a source
    /// archive: it comes from there, without dependencies (``sources``).
    public static let twarcCSV = Requirements(
      name: "twarc-csv",
      packages: [
        "twarc==2.14.0", "pandas==2.0.3", "numpy==1.26.4", "more-itertools==10.1.0", "tqdm==4.66.1", "click==8.5.1", "click-config-file==0.6.0",
        "click-plugins==1.1.1.2", "configobj==5.0.9", "humanize==4.17.0", "python-dateutil==4.0.0", "pytz==2026.6", "tzdata==2026.6",
        "requests==2.34.2", "requests-oauthlib==2.0.0", "oauthlib==4.0.1", "urllib3==2.8.0", "idna==3.20", "certifi==2026.10.19.post1",
        "charset-normalizer==3.5.3",
      ],
      sources: ["twarc-csv==0.7.2"])

    /// requests-oauthlib 2.0.0, an independent OAuth 1.0a client (requests over oauthlib), and
    /// what it runs on, each pinned: oauthlib at the default set's version, and what its RSA
    /// methods need. `oauth1 serve` is tested against it.
    public static let requestsOAuthlib = Requirements(
      name: "requests-oauthlib",
      packages: [
        "requests-oauthlib==2.0.0", "oauthlib==3.3.1", "requests==2.34.2", "urllib3==2.8.0", "idna==3.20", "certifi==2026.10.19.post1",
        "charset-normalizer==3.5.3", "PyJWT==2.10.1", "cryptography==45.0.7", "cffi==1.17.1", "pycparser==2.22",
      ])

    /// Python's `lti` 0.9.5 (PyPI's newest, 2018), an independent LTI 1.1 implementation: its
    /// ToolConsumer signs launches, its ToolProvider verifies them, its OutcomeRequest sends
    /// grades with `oauth_body_hash`. Each dependency pinned: lxml, and oauthlib and
    /// requests-oauthlib at the other sets' versions.
    public static let lti = Requirements(
      name: "lti",
      packages: [
        "lti==0.9.5", "lxml==6.1.3", "oauthlib==3.3.1", "requests-oauthlib==2.0.0", "requests==2.34.2", "urllib3==2.8.0", "idna==3.20",
        "certifi==2026.10.19.post1", "charset-normalizer==3.5.3",
      ])

    var folderName: String { name.isEmpty ? "python" : "python-\(name)" }
  }

  /// The default set's packages.
  public static let requirements = Requirements.oauthlib.packages

  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  /// The folder the packages of `set` are installed in, installing them on first use.
  public static func sitePackages(_ set: Requirements = .oauthlib) throws -> URL {
    try installations.value(for: set)
  }

  /// Runs `Tests/Peers/<script>` with the pinned packages of `set`, feeding `input` on stdin,
  /// and returns its stdout. A non-zero exit is a ``Failure`` that carries the script's stderr.
  public static func run(
    script: String, input: Data, requirements set: Requirements = .oauthlib, timeout: Double = 300
  ) async throws -> Data {
    let site = try await onOwnThread { try sitePackages(set) }
    var environment = ProcessInfo.processInfo.environment
    environment["PYTHONPATH"] = site.path
    environment["PYTHONDONTWRITEBYTECODE"] = "1"
    environment["PYTHONNOUSERSITE"] = "1"
    let result = try await ProcessRunner.run(
      python, ["python3", "-s", PackagePaths.peers.appendingPathComponent(script).path],
      stdin: input, environment: environment, timeout: timeout)
    guard result.status == 0 else {
      throw Failure(description: "Tests/Peers/\(script) exited with \(result.status):\n\(result.stderr)")
    }
    return Data(result.stdout.utf8)
  }

  private static let python = URL(fileURLWithPath: "/usr/bin/env")

  private static let installations = Installations()

  /// One installation per set, each made once per process (two tests asking at once wait for
  /// the first), and reused across runs while its `.requirements` marker matches.
  private final class Installations: @unchecked Sendable {
    private let lock = NSLock()
    private var done: [Requirements: Result<URL, any Error>] = [:]

    func value(for set: Requirements) throws -> URL {
      lock.lock()
      defer { lock.unlock() }
      if let result = done[set] { return try result.get() }
      let result = Result { try PythonPeer.install(set) }
      done[set] = result
      return try result.get()
    }
  }

  private static func install(_ set: Requirements) throws -> URL {
    let requirements = set.packages + set.sources
    let folder = PackagePaths.testDependencies.appendingPathComponent(set.folderName)
    let marker = folder.appendingPathComponent(".requirements")
    let wanted = requirements.joined(separator: "\n")
    if let installed = try? String(contentsOf: marker, encoding: .utf8), installed == wanted {
      return folder
    }
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let result = try ProcessRunner.runBlocking(
      python,
      [
        "python3", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-input",
        "--only-binary=:all:", "--target", folder.path,
      ] + set.packages,
      timeout: 600)
    var sourceResult = result
    if result.status == 0 && !set.sources.isEmpty {
      sourceResult = try ProcessRunner.runBlocking(
        python,
        ["python3", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-input", "--no-deps", "--target", folder.path]
          + set.sources,
        timeout: 600)
    }
    for result in [result, sourceResult] where result.status != 0 {
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
