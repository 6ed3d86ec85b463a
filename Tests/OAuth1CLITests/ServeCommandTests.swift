import Foundation
import OAuth1
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `oauth1 serve` as a real process, driven by an independent client: Python's requests-oauthlib
/// (pinned, installed by the tests under `.test-deps/`) runs the three-legged flow and signs
/// protected requests every way it can (`Tests/Peers/requests_oauthlib_client.py`).
@Suite("oauth1 serve against requests-oauthlib", .tags(.peers, .processes), .tier(.peers, .processes))
struct ServeCommandTests {
  static let consumerKey = "serve-consumer-key"
  static let consumerSecret = "serve-consumer-secret-\(UUID().uuidString)"

  /// The flow with a callback and the PIN flow complete; every signature method in every
  /// transmission is accepted, with the base string oauthlib computes for the request; the
  /// refusals carry their problem, in the challenge and the body, and the provider's base string.
  @Test func requestsOAuthlibRunsTheFlowAndEverySignature() async throws {
    let keys = try await RSAKeyPair.generate()
    defer { try? FileManager.default.removeItem(at: keys.folder) }
    let log = keys.folder.appendingPathComponent("provider.jsonl")
    let server = try await ServeProcess.start([
      "--consumer-key", Self.consumerKey, "--consumer-secret", Self.consumerSecret, "--rsa-public-key", keys.publicKey.path, "--log", log.path,
    ])
    defer { server.stop() }
    let input = try JSONSerialization.data(withJSONObject: [
      "base_url": server.baseURL.absoluteString, "consumer_key": Self.consumerKey, "consumer_secret": Self.consumerSecret,
      "rsa_private_key_pem": try String(contentsOf: keys.privateKey, encoding: .utf8),
    ])
    let output = try await PythonPeer.run(script: "requests_oauthlib_client.py", input: input, requirements: .requestsOAuthlib)
    let report = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
    let flow = try #require(report["flow"] as? [String: Any])
    let results = try #require(report["results"] as? [[String: Any]]).map(Answer.init)
    func answer(_ name: String) throws -> Answer { try #require(results.first { $0.name == name }, "no answer named \(name)") }

    // The flow with a callback: a request token, a redirect to the callback, an access token.
    #expect(flow["request_token_fields"] as? [String] == ["oauth_callback_confirmed", "oauth_token", "oauth_token_secret"], "\(flow)")
    #expect(flow["authorize_status"] as? Int == 302 && flow["redirect_to_callback"] as? Bool == true, "\(flow)")
    #expect(flow["redirect_fields"] as? [String] == ["oauth_token", "oauth_verifier"] && flow["redirect_token_matches"] as? Bool == true)
    #expect(flow["access_token_fields"] as? [String] == ["oauth_token", "oauth_token_secret"], "\(flow)")
    // The PIN flow: the page shows it, and it buys an access token.
    #expect(flow["oob_authorize_status"] as? Int == 200 && flow["oob_pin_shown"] as? Bool == true, "\(flow)")
    #expect(flow["oob_access_token_fields"] as? [String] == ["oauth_token", "oauth_token_secret"], "\(flow)")

    // Every method in every transmission, with the token the flow issued.
    let methods = ["HMAC-SHA1", "HMAC-SHA256", "HMAC-SHA512", "PLAINTEXT", "RSA-SHA1", "RSA-SHA256", "RSA-SHA512"]
    for method in methods {
      for transmission in ["header", "query", "body"] {
        let accepted = try answer("\(method) \(transmission)")
        #expect(accepted.status == 200 && accepted.body["valid"] as? Bool == true, "\(accepted)")
        #expect(accepted.body["transmission"] as? String == transmission, "\(accepted)")
        #expect(accepted.body["signature_method"] as? String == method, "\(accepted)")
        #expect(accepted.body["consumer_key"] as? String == Self.consumerKey)
        #expect(accepted.body["token"] is String, "the flow's access token: \(accepted)")
        #expect(accepted.baseString == accepted.oauthlibBaseString, "\(accepted)")
        #expect(accepted.body["base_string_uri"] as? String == server.baseURL.absoluteString + "/1.1/statuses/update.json", "\(accepted)")
        #expect((accepted.body["normalized_parameters"] as? String)?.contains("q=caf%C3%A9%20%26%20more") == true, "\(accepted)")
      }
    }
    let bodyHash = try answer("json body hash")
    #expect(bodyHash.status == 200 && bodyHash.baseString?.contains("oauth_body_hash") == true, "\(bodyHash)")
    let twoLegged = try answer("two-legged")
    #expect(twoLegged.status == 200 && twoLegged.body["token"] is NSNull, "\(twoLegged)")

    // A signature made with the wrong secret: refused, with the base string oauthlib signed.
    let forged = try answer("wrong consumer secret")
    #expect(forged.status == 401 && forged.problem == "signature_invalid", "\(forged)")
    #expect(forged.challenge?.contains(#"oauth_problem="signature_invalid""#) == true, "\(forged)")
    #expect(forged.challenge?.hasPrefix(#"OAuth realm="http://127.0.0.1:"#) == true, "\(forged)")
    #expect(forged.baseString != nil && forged.baseString == forged.oauthlibBaseString, "\(forged)")
    // A query changed after signing: the provider's base string is the one of the request as
    // received, and the diff against what was signed names the parameter.
    let tampered = try answer("query changed after signing")
    #expect(tampered.status == 401 && tampered.problem == "signature_invalid", "\(tampered)")
    #expect(tampered.baseString == tampered.oauthlibBaseString, "\(tampered)")
    let signed = try #require(tampered.signedBaseString)
    let diff = OAuthBaseStringDiff(ours: signed, provider: try #require(tampered.baseString))
    #expect(diff.first == .value(name: "page", ours: "2", provider: "3"), "\(diff)")
    let changedBody = try answer("json body changed")
    #expect(changedBody.status == 401 && changedBody.problem == "signature_invalid", "\(changedBody)")
    #expect(changedBody.body["oauth_parameters_rejected"] as? [String] == ["oauth_body_hash"], "\(changedBody)")

    // A stale timestamp, with the window accepted.
    let stale = try answer("stale timestamp")
    #expect(stale.status == 401 && stale.problem == "timestamp_refused", "\(stale)")
    let window = try #require(stale.body["oauth_acceptable_timestamps"] as? String).split(separator: "-").compactMap { Int64($0) }
    let now = Int64(Date().timeIntervalSince1970)
    #expect(window.count == 2 && window[0] <= now && now - 300 <= window[1] && window[1] - window[0] == 600, "\(stale)")
    #expect(stale.challenge?.contains(#"oauth_acceptable_timestamps="\#(window.map(String.init).joined(separator: "-"))""#) == true)
    // A replay: accepted once, then nonce_used.
    #expect(try answer("replayed nonce#1").status == 200)
    let replay = try answer("replayed nonce#2")
    #expect(replay.status == 401 && replay.problem == "nonce_used" && replay.baseString == replay.oauthlibBaseString, "\(replay)")
    // The other refusals.
    #expect(try answer("unknown consumer key").problem == "consumer_key_unknown")
    #expect(try answer("unknown token").problem == "token_rejected")
    #expect(try answer("request token exchanged twice").problem == "token_rejected")
    let wrongVerifier = try answer("wrong verifier")
    #expect(wrongVerifier.status == 401 && wrongVerifier.body["oauth_parameters_rejected"] as? [String] == ["oauth_verifier"], "\(wrongVerifier)")
    let noCallback = try answer("request token without callback")
    #expect(noCallback.status == 400 && noCallback.body["oauth_parameters_absent"] as? [String] == ["oauth_callback"], "\(noCallback)")
    #expect(noCallback.challenge?.contains(#"oauth_parameters_absent="oauth_callback""#) == true, "\(noCallback)")

    // The log: a JSON line per request, and no secret, verifier or signature in it.
    await server.stopAndWait()
    let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
    #expect(lines.count >= results.count + 6, "\(lines.count) lines for \(results.count) answers and the flows' steps")
    for line in lines {
      let entry = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
      #expect(entry["status"] is Int && entry["outcome"] is String && entry["path"] is String, "\(line)")
    }
    let text = try String(contentsOf: log, encoding: .utf8)
    let secrets = try #require(report["issued_secrets"] as? [String])
    #expect(secrets.count == 6)
    for secret in secrets + [Self.consumerSecret, "oauth_signature", "oauth_verifier", "Hello"] {
      #expect(!text.contains(secret), "the log holds \(secret)")
    }
    #expect(text.contains(#""outcome":"signature_invalid""#) && text.contains(#""outcome":"nonce_used""#))
  }

  /// `oauth1 request` against the provider: accepted, then, with a `Host` the provider sees
  /// other than the URL signed, refused with the first difference named from the provider's
  /// base string.
  @Test func oauth1RequestExplainsARefusal() async throws {
    let server = try await ServeProcess.start([
      "--consumer-key", "key", "--consumer-secret", "secret", "--token", "tok", "--token-secret", "toksecret",
    ])
    defer { server.stop() }
    let url = server.baseURL.absoluteString + "/items?page=2"
    let signing = ["--consumer-key", "key", "--consumer-secret", "secret", "--token", "tok", "--token-secret", "toksecret"]
    let accepted = try await oauth1(["request", "GET", url] + signing)
    #expect(accepted.status == 0, "\(accepted.stderr)")
    let body = try #require(try JSONSerialization.jsonObject(with: Data(accepted.stdout.utf8)) as? [String: Any])
    #expect(body["valid"] as? Bool == true && body["token"] as? String == "tok" && body["normalized_parameters"] is String, "\(body)")

    let wrongSecret = try await oauth1(["request", "GET", url] + signing.dropLast() + ["not-the-token-secret"])
    #expect(wrongSecret.status == 1)
    #expect(wrongSecret.stderr.contains("refused the request (HTTP 401): signature_invalid"), "\(wrongSecret.stderr)")
    #expect(wrongSecret.stderr.contains("equals ours: the key differs"), "\(wrongSecret.stderr)")
    #expect(!wrongSecret.stderr.contains("not-the-token-secret") && !wrongSecret.stderr.contains("toksecret"))

    let otherHost = try await oauth1(["request", "GET", url, "-H", "Host: localhost:\(server.port)"] + signing)
    #expect(otherHost.status == 1)
    #expect(otherHost.stderr.contains("differs from ours in the host: we signed 127.0.0.1, the provider localhost"), "\(otherHost.stderr)")
  }
}

/// `oauth1 login` and `oauth1 request` against `oauth1 serve`: the package's own client through
/// the flow, with the loopback callback, then a protected request with the token it saved.
@Suite("oauth1 login against oauth1 serve", .tags(.processes), .tier(.processes))
struct ServeLoginTests {
  @Test func loginThenRequestWithTheSavedToken() async throws {
    let server = try await ServeProcess.start(["--consumer-key", "key", "--consumer-secret", "secret"])
    defer { server.stop() }
    let config = FileManager.default.temporaryDirectory.appendingPathComponent("oauth1-config-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: config) }
    var environment = ProcessInfo.processInfo.environment
    environment["OAUTH1_CONFIG_DIR"] = config.path
    environment.removeValue(forKey: "BROWSER")
    let base = server.baseURL.absoluteString
    let login = try InteractiveProcess(
      PackagePaths.executable("oauth1"),
      [
        "login", "--request-token-url", base + "/oauth/request_token", "--authorize-url", base + "/oauth/authorize", "--access-token-url",
        base + "/oauth/access_token", "--consumer-key", "key", "--consumer-secret", "secret", "--callback", "loopback", "--profile", "local",
        "--no-browser",
      ], environment: environment)
    #expect(await login.waitForError(containing: "Waiting for the provider"), "\(login.stderr)")
    let line = try #require(login.stderr.split(separator: "\n").first { $0.contains("/oauth/authorize?") })
    let authorize = try #require(URL(string: line.trimmingCharacters(in: .whitespaces)))
    // The browser: the provider approves at once and redirects to the command's callback server.
    let (_, response) = try await URLSession.tests.data(from: authorize)
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    let result = await login.wait()
    #expect(result.status == 0, "\(result.stderr)")

    let request = try await oauth1(["request", "GET", base + "/items?page=2", "--profile", "local"], environment: environment)
    #expect(request.status == 0, "\(request.stderr)")
    let body = try #require(try JSONSerialization.jsonObject(with: Data(request.stdout.utf8)) as? [String: Any], "\(request.stdout)")
    #expect(body["valid"] as? Bool == true && body["token"] is String && body["consumer_key"] as? String == "key", "\(body)")
  }
}

/// One answer the Python client recorded.
struct Answer: CustomStringConvertible {
  let name: String
  let status: Int
  let challenge: String?
  let body: [String: Any]
  let oauthlibBaseString: String?
  let signedBaseString: String?

  init(_ entry: [String: Any]) {
    name = entry["name"] as? String ?? ""
    status = entry["status"] as? Int ?? 0
    challenge = entry["www_authenticate"] as? String
    body = entry["body"] as? [String: Any] ?? ["text": entry["body"] ?? ""]
    oauthlibBaseString = entry["oauthlib_base_string"] as? String
    signedBaseString = entry["signed_base_string"] as? String
  }

  var problem: String? { body["oauth_problem"] as? String }
  var baseString: String? { body["base_string"] as? String }
  var description: String { "\(name): \(status) \(challenge ?? "-") \(body)" }
}

/// `oauth1 serve --port 0` as a child process.
enum ServeProcess {
  static func start(_ arguments: [String]) async throws -> LoopbackServer {
    try await LoopbackServer.start(
      executable: PackagePaths.executable("oauth1"), arguments: ["serve", "--port", "0", "--until-stdin-closes"] + arguments)
  }
}

/// A fresh RSA key pair, made by `openssl` in a temporary folder.
struct RSAKeyPair {
  let folder: URL
  var privateKey: URL { folder.appendingPathComponent("private.pem") }
  var publicKey: URL { folder.appendingPathComponent("public.pem") }

  static func generate() async throws -> RSAKeyPair {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oauth1-serve-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let pair = RSAKeyPair(folder: folder)
    let env = URL(fileURLWithPath: "/usr/bin/env")
    for arguments in [
      ["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", pair.privateKey.path],
      ["openssl", "pkey", "-in", pair.privateKey.path, "-pubout", "-out", pair.publicKey.path],
    ] {
      let result = try await ProcessRunner.run(env, arguments, timeout: 60)
      guard result.status == 0 else { throw CLIFailure(description: "\(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)") }
    }
    return pair
  }
}
