import Foundation
import TestSupport
import Testing
import XSandbox

/// The control API of `tweets sandbox serve --control` over loopback (issue #35 item 7): it
/// steers the sandbox (its clock, scripted faults), so only the harness that started it may
/// use it: a token printed at start (or given), sent in `X-Sandbox-Control-Token`; a loopback
/// Host with the server's port; JSON only. A web page (a foreign Host or Origin, a `text/plain`
/// form post) or another local process without the token changes nothing.
@Suite("The sandbox's control API", .sandboxChecks, .tags(.processes), .tier(.processes))
struct SandboxControlAPITests {
  static func serve(_ extra: [String] = []) async throws -> SandboxProcess {
    try await SandboxProcess.start(["--control", "--tweets-per-user", "5"] + extra)
  }

  /// The token the server printed, `control token: TOKEN`.
  static func token(_ server: SandboxProcess) throws -> String {
    let line = try #require(server.output.split(separator: "\n").first { $0.hasPrefix("control token: ") }, "\(server.output)")
    return String(line.dropFirst("control token: ".count))
  }

  static func send(_ server: SandboxProcess, _ request: String) throws -> (status: Int?, text: String) {
    let socket = try RawSocket(port: server.port)
    socket.send(request)
    let answer = socket.receive(timeout: TestTiming.seconds(10))
    return (RawSocket.status(of: answer), String(decoding: answer, as: UTF8.self))
  }

  static func post(_ path: String, host: String, headers: [String] = [], body: String) -> String {
    "POST \(path) HTTP/1.1\r\nHost: \(host)\r\n" + headers.map { $0 + "\r\n" }.joined() + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
  }

  /// How far ahead of the real time the sandbox's clock is, from its `Date` header, in days.
  static func clockAhead(_ server: SandboxProcess) throws -> Double {
    let (_, text) = try send(server, "GET /nothing HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
    let line = try #require(text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("date: ") })
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    let date = try #require(formatter.date(from: String(line.dropFirst(6))))
    return date.timeIntervalSinceNow / 86_400
  }

  /// The forged request of the report: a `text/plain` POST with a foreign Host and Origin, as a
  /// web page's form (or a DNS-rebound page) sends it. The clock stays where it was.
  @Test func aWebPageCannotChangeTheClock() async throws {
    let server = try await Self.serve()
    defer { server.stop() }
    let year = #"{"skew": 31536000}"#
    let forged = Self.post(
      "/_control/clock", host: "evil.example", headers: ["Origin: http://evil.example", "Content-Type: text/plain"], body: year)
    let (status, text) = try Self.send(server, forged)
    #expect(status == 403 || status == 401, "\(text)")
    #expect(abs(try Self.clockAhead(server)) < 1, "the clock moved")
  }

  /// Each check on its own, with everything else right: the token (none: 401, a wrong one:
  /// 403), the Host (403), the Origin (403), the media type (415); then all right: 200.
  @Test func theTokenTheHostAndJSONAreRequired() async throws {
    let server = try await Self.serve()
    defer { server.stop() }
    let token = try Self.token(server)
    #expect(token.count >= 32)
    let host = "127.0.0.1:\(server.port)"
    let json = "Content-Type: application/json"
    let skew = #"{"skew": 31536000}"#
    let cases: [(String, [String], Int)] = [
      (host, [json], 401),
      (host, [json, "X-Sandbox-Control-Token: " + String(token.reversed())], 403),
      (host, [json, "X-Sandbox-Control-Token: " + token.dropLast()], 403),
      ("evil.example:\(server.port)", [json, "X-Sandbox-Control-Token: " + token], 403),
      ("127.0.0.1:\(Int(server.port) + 1)", [json, "X-Sandbox-Control-Token: " + token], 403),
      (host, [json, "X-Sandbox-Control-Token: " + token, "Origin: http://evil.example"], 403),
      (host, ["Content-Type: text/plain", "X-Sandbox-Control-Token: " + token], 415),
      (host, ["X-Sandbox-Control-Token: " + token], 415),
    ]
    for (host, headers, expected) in cases {
      let (status, text) = try Self.send(server, Self.post("/_control/clock", host: host, headers: headers, body: skew))
      #expect(status == expected, "Host \(host), \(headers): \(text)")
      #expect(!text.contains(token), "the token is never repeated")
    }
    #expect(abs(try Self.clockAhead(server)) < 1, "a refused request moved the clock")
    for name in ["localhost:\(server.port)", host] {
      let headers = [json, "X-Sandbox-Control-Token: " + token, "Origin: http://\(name)"]
      let (status, text) = try Self.send(server, Self.post("/_control/clock", host: name, headers: headers, body: skew))
      #expect(status == 200, "\(text)")
    }
    #expect(try Self.clockAhead(server) > 360)
    // A GET needs the token too (the secrets, the request log).
    let (stats, _) = try Self.send(server, "GET /_control/secret?consumer=sandbox-consumer-key HTTP/1.1\r\nHost: \(host)\r\n\r\n")
    #expect(stats == 401)
  }

  /// `--control-token TOKEN` sets the token; too short a one is a usage error.
  @Test func aGivenToken() async throws {
    let chosen = "harness-token-" + UUID().uuidString
    let server = try await Self.serve(["--control-token", chosen])
    defer { server.stop() }
    #expect(try Self.token(server) == chosen)
    let headers = ["Content-Type: application/json", "X-Sandbox-Control-Token: " + chosen]
    let (status, text) = try Self.send(server, Self.post("/_control/reset", host: "127.0.0.1:\(server.port)", headers: headers, body: "{}"))
    #expect(status == 200, "\(text)")
    let short = try await ProcessRunner.run(
      PackagePaths.executable("tweets"), ["sandbox", "serve", "--port", "0", "--control", "--control-token", "short"])
    #expect(short.status == 2 && short.stderr.contains("--control-token"), "\(short.stderr)")
    let alone = try await ProcessRunner.run(PackagePaths.executable("tweets"), ["sandbox", "serve", "--port", "0", "--control-token", chosen])
    #expect(alone.status == 2 && alone.stderr.contains("--control"), "\(alone.stderr)")
  }

  /// `tweets sandbox serve --credits USD --post-cap N` (issue #30 item 7): the sandbox bills
  /// from the start; the control API's `billing` reads the account and tops it up. Amounts
  /// that are none are refused as usage errors.
  @Test func creditsAndAPostCapFromTheCommandLine() async throws {
    let server = try await Self.serve(["--credits", "0.50", "--post-cap", "100"])
    defer { server.stop() }
    let token = try Self.token(server)
    let host = "127.0.0.1:\(server.port)"
    let headers = ["Content-Type: application/json", "X-Sandbox-Control-Token: " + token, "Connection: close"]
    let (status, text) = try Self.send(server, Self.post("/_control/billing", host: host, headers: headers, body: "{}"))
    #expect(status == 200 && text.contains(#""balance":"0.50""#) && text.contains(#""post_cap":100"#), "\(text)")
    let (added, topped) = try Self.send(server, Self.post("/_control/billing", host: host, headers: headers, body: #"{"add_credits": "1"}"#))
    #expect(added == 200 && topped.contains(#""balance":"1.50""#), "\(topped)")
    let bad = try await ProcessRunner.run(PackagePaths.executable("tweets"), ["sandbox", "serve", "--port", "0", "--credits", "lots"])
    #expect(bad.status == 2 && bad.stderr.contains("--credits"), "\(bad.stderr)")
    let negative = try await ProcessRunner.run(PackagePaths.executable("tweets"), ["sandbox", "serve", "--port", "0", "--post-cap", "-1"])
    #expect(negative.status == 2 && negative.stderr.contains("--post-cap"), "\(negative.stderr)")
  }
}
