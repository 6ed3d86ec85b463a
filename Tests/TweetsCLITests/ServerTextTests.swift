import Foundation
import TestSupport
import Testing

/// What a hostile server's text can do to the reader of `tweets`' output (issue #43 items 7 and
/// 10), against `Tests/Peers/canned_server.py` on loopback answering X's paths with names, texts
/// and fields that hold terminal escapes and spreadsheet formulas.
@Suite("text from a hostile server", .tags(.processes, .peers), .tier(.processes, .peers))
struct ServerTextTests {
  /// ESC sequences (clear the screen, set the title, write the clipboard, hide text), C1
  /// controls (NEL, CSI), DEL, a carriage return and a backspace, in every field shown.
  static let escapes = "\u{1B}[2J\u{1B}]0;pwned\u{07}\u{1B}]52;c;ZXZpbA==\u{07}\u{9B}31m\u{85}\u{7F}\r\u{08}"

  static var answers: [String: Any] {
    [
      "/2/compliance/jobs": [
        "json": [
          "data": [
            [
              "id": "1" + escapes, "type": "tweets", "status": "complete" + escapes, "name": "job" + escapes,
              "created_at": "2026-01-01T00:00:00.000Z", "resumable": false,
            ]
          ]
        ]
      ],
      "/2/connections": ["json": ["data": [["id": "c" + escapes, "endpoint_name": "filter" + escapes, "client_ip": "1.2.3.4" + escapes]]]],
      "/2/users/me": ["json": ["data": ["id": "9", "username": "me" + escapes, "name": "Me" + escapes]]],
      "/2/users/9/bookmarks/folders": ["json": ["data": [["id": "5", "name": "folder" + escapes]]]],
      "/2/tweets": [
        "json": [
          "data": [["id": "1", "text": "=HYPERLINK(\"https://evil.example\")" + escapes + "\nline 2\tand a tab", "author_id": "9"]],
          "includes": ["users": [["id": "9", "username": "author" + escapes, "name": "Name" + escapes]]],
          "errors": [
            [
              "value": "2", "detail": "Could not find tweet with ids: [2]." + escapes, "title": "Not Found Error", "resource_type": "tweet",
              "parameter": "ids", "resource_id": "2", "type": "https://api.twitter.com/2/problems/resource-not-found",
            ]
          ],
        ]
      ],
    ]
  }

  /// Runs `tweets ARGUMENTS` against `server` with credentials in the environment.
  static func run(_ arguments: [String], _ server: LoopbackServer, _ folder: URL) async throws -> ProcessResult {
    var environment = ["NO_COLOR": "1", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
    for name in ["X_BEARER_TOKEN", "X_CONSUMER_KEY", "X_CONSUMER_SECRET", "X_ACCESS_TOKEN", "X_ACCESS_TOKEN_SECRET"] { environment[name] = "t" }
    return try await ProcessRunner.run(
      PackagePaths.executable("tweets"), arguments + ["--base-url", server.baseURL.absoluteString, "--config-dir", folder.path],
      environment: environment, timeout: 60)
  }

  /// The control characters in `text` that a terminal obeys: C0 but for the line feed and the
  /// tab, DEL, C1.
  static func controls(_ text: String) -> [UInt32] {
    text.unicodeScalars.map(\.value).filter { ($0 < 0x20 && $0 != 0x0A && $0 != 0x09) || (0x7F..<0xA0).contains($0) }
  }

  @Test func serverTextReachesTheTerminalWithoutItsControlCharacters() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("server-text-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("answers.json")
    try JSONSerialization.data(withJSONObject: Self.answers).write(to: file)
    let server = try await LoopbackServer.start(script: "canned_server.py", arguments: ["--answers", file.path])
    defer { server.stop() }

    for command in [["compliance", "jobs"], ["stream", "connections"], ["bookmarks", "--folders"], ["show", "1"], ["whoami"]] {
      let result = try await Self.run(command, server, folder)
      #expect(result.status == 0, "\(command): \(result.stderr)")
      #expect(Self.controls(result.stdout).isEmpty, "\(command): \(result.stdout.debugDescription)")
      #expect(result.stdout.contains("\u{FFFD}[2J\u{FFFD}]0;pwned\u{FFFD}"), "\(command): \(result.stdout.debugDescription)")
    }
    // A post's lines and tabs are kept: they are its text. X's errors on stderr are shown so too.
    let post = try await Self.run(["show", "1", "2"], server, folder)
    #expect(post.stdout.contains("\n  line 2\tand a tab"), "\(post.stdout.debugDescription)")
    #expect(post.stderr.contains("2: Could not find tweet with ids: [2].\u{FFFD}[2J"), "\(post.stderr.debugDescription)")
    #expect(Self.controls(post.stderr).isEmpty, "\(post.stderr.debugDescription)")
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
    let server = try await LoopbackServer.start(script: "canned_server.py", arguments: ["--answers", file.path])
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
