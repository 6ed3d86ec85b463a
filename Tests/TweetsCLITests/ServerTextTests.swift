import Foundation
import TestSupport
import Testing

/// What a hostile server's text can do to the reader of `tweets`' output (issue #43 item 7),
/// against `Tests/Peers/canned_server.py` on loopback answering X's paths with names, texts and
/// fields that hold spreadsheet formulas.
@Suite("text from a hostile server", .tags(.processes, .peers), .tier(.processes, .peers))
struct ServerTextTests {
  /// Runs `tweets ARGUMENTS` against `server` with credentials in the environment.
  static func run(_ arguments: [String], _ server: LoopbackServer, _ folder: URL) async throws -> ProcessResult {
    var environment = ["NO_COLOR": "1", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
    for name in ["X_BEARER_TOKEN", "X_CONSUMER_KEY", "X_CONSUMER_SECRET", "X_ACCESS_TOKEN", "X_ACCESS_TOKEN_SECRET"] { environment[name] = "t" }
    return try await ProcessRunner.run(
      PackagePaths.executable("tweets"), arguments + ["--base-url", server.baseURL.absoluteString, "--config-dir", folder.path],
      environment: environment, timeout: 60)
  }

  /// `--format csv` writes a cell that begins like a formula with a leading `'` (OWASP): this
  /// CSV promises no other tool's bytes. (`tweets export` keeps twarc-csv's: ExportTests.)
  @Test func formatCSVEscapesCellsThatBeginLikeAFormula() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("server-text-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let texts = ["=HYPERLINK(\"https://evil.example\")", "+1", "-2", "@SUM(A1)", "\tx", "\r=1+1", "plain"]
    let posts = texts.enumerated().map { ["id": String($0.offset + 1), "text": $0.element, "author_id": "9"] }
    let answers: [String: Any] = [
      "/2/tweets": ["json": ["data": posts, "includes": ["users": [["id": "9", "username": "=user", "name": "-name"]]]]]
    ]
    let file = folder.appendingPathComponent("answers.json")
    try JSONSerialization.data(withJSONObject: answers).write(to: file)
    let server = try LoopbackServer(script: "canned_server.py", arguments: ["--answers", file.path])
    defer { server.stop() }
    let result = try await Self.run(["show"] + (1...texts.count).map(String.init) + ["--format", "csv"], server, folder)
    #expect(result.status == 0, "\(result.stderr)")
    let rows = result.stdout.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }
    #expect(rows.count == texts.count, "\(result.stdout.debugDescription)")
    let expected = [
      #"1,,9,'=user,'-name,"'=HYPERLINK(""https://evil.example"")""#, "2,,9,'=user,'-name,'+1", "3,,9,'=user,'-name,'-2",
      "4,,9,'=user,'-name,'@SUM(A1)", "5,,9,'=user,'-name,'\tx", "6,,9,'=user,'-name,\"'\r=1+1\"", "7,,9,'=user,'-name,plain",
    ]
    for (row, start) in zip(rows, expected) { #expect(row.hasPrefix(start + ","), "\(row.debugDescription)") }
  }
}
