import Foundation

/// X's own OpenAPI specification as the judge of the sandbox's answers: every answer a
/// ``VerifiedSandbox`` sends is logged (`tweets sandbox serve --record-exchanges`), and when the
/// sandbox stops, `Tests/Peers/openapi_check.py` validates each against its operation's response
/// schema in `Tests/Specs/x-openapi-2.166.json` with python-openapi's `openapi-core` (pinned in
/// ``requirements``). What it does not check (paths X's specification lacks, answers a test
/// scripted, the post spelling) it lists; see the script's header.
///
/// One checker process serves the whole test run, so that the specification is read once
/// and Python starts once, not once per sandbox: checks wait for each other.
///
/// ```swift
/// let (outside, report) = try SpecCheck.check(log)  // outside == 0: every answer in X's schemas
/// ```
public enum SpecCheck {
  /// openapi-core and every package it pulls in, each pinned, as wheels.
  public static let requirements = PythonPeer.Requirements(
    name: "openapi",
    packages: [
      "openapi-core==0.23.1", "openapi-schema-validator==0.8.1", "openapi-spec-validator==0.8.5", "jsonschema==4.26.0",
      "jsonschema-path==0.4.6", "jsonschema-specifications==2025.9.1", "referencing==0.37.0", "rpds-py==2026.9.1", "attrs==26.1.0",
      "isodate==0.7.2", "lazy-object-proxy==1.13.0", "MarkupSafe==3.0.4", "more-itertools==11.2.1", "pathable==0.5.0", "PyYAML==6.0.4",
      "rfc3339-validator==0.1.4", "six==1.17.0", "typing-extensions==4.16.0", "Werkzeug==3.1.9", "pydantic==2.14.4", "pydantic-core==2.50.5",
      "pydantic-settings==2.16.3", "python-dotenv==1.2.4", "annotated-types==0.8.0", "typing-inspection==0.4.5",
    ])

  /// X's specification, version 2.166, vendored unchanged (`Tests/Specs/README.md` says from
  /// where and why that version).
  public static let specification = PackagePaths.root.appendingPathComponent("Tests/Specs/x-openapi-2.166.json")

  /// Validates the answers logged in `log`: how many are outside X's schemas, and the
  /// checker's report (every finding with its operation, status and the validator's message).
  public static func check(_ log: URL) throws -> (outside: Int, report: String) {
    try checker.value().check(log)
  }

  private static let checker = Lazy { try Checker() }

  /// The one `openapi_check.py --serve`: a log's path a line in, a JSON line out.
  private final class Checker: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let lock = NSLock()
    private var buffer = Data()

    init() throws {
      let site = try PythonPeer.sitePackages(SpecCheck.requirements)
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = [
        "python3", "-s", PackagePaths.peers.appendingPathComponent("openapi_check.py").path, "--spec", SpecCheck.specification.path, "--serve",
      ]
      var environment = ProcessInfo.processInfo.environment
      environment["PYTHONPATH"] = site.path
      environment["PYTHONDONTWRITEBYTECODE"] = "1"
      environment["PYTHONNOUSERSITE"] = "1"
      process.environment = environment
      process.standardInput = input
      process.standardOutput = output
      try process.runOneAtATime()
    }

    func check(_ log: URL) throws -> (outside: Int, report: String) {
      lock.lock()
      defer { lock.unlock() }
      guard process.isRunning else { throw PythonPeer.Failure(description: "Tests/Peers/openapi_check.py is no longer running") }
      try input.fileHandleForWriting.write(contentsOf: Data((log.path + "\n").utf8))
      while !buffer.contains(0x0A) {
        let chunk = output.fileHandleForReading.availableData
        guard !chunk.isEmpty else { throw PythonPeer.Failure(description: "Tests/Peers/openapi_check.py ended without answering for \(log.path)") }
        buffer.append(chunk)
      }
      let end = buffer.firstIndex(of: 0x0A)!
      let line = buffer[buffer.startIndex..<end]
      buffer = Data(buffer[buffer.index(after: end)...])
      struct Answer: Decodable {
        let outside: Int
        let report: String
      }
      let answer = try JSONDecoder().decode(Answer.self, from: line)
      guard answer.outside >= 0 else { throw PythonPeer.Failure(description: answer.report) }
      return (answer.outside, answer.report)
    }
  }

  /// A value made on first use, once; a failure is kept and thrown to every later caller.
  private final class Lazy<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private let make: () throws -> Value
    private var result: Result<Value, any Error>?

    init(_ make: @escaping () throws -> Value) { self.make = make }

    func value() throws -> Value {
      lock.lock()
      defer { lock.unlock() }
      if let result { return try result.get() }
      let made = Result { try make() }
      result = made
      return try made.get()
    }
  }
}
