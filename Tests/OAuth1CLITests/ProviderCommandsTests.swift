import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `oauth1 login` and `oauth1 request` as processes against the fake provider, which verifies
/// with oauthlib's provider endpoints: one test per provider rule (HMAC-SHA256 with a realm,
/// RSA-SHA1, one-legged query signing, PLAINTEXT with a required User-Agent, a SHA-256 body hash
/// on an empty POST), the three-legged flow with a typed verifier and with the loopback
/// callback, and a refusal explained by the provider's own base string.
@Suite("oauth1 login and request (fake provider)", .tags(.peers, .processes), .tier(.peers), .serialized)
struct ProviderCommandsTests {
  let secrets = [FakeOAuthProvider.consumerSecret, FakeOAuthProvider.accessTokenSecret]

  func configDirectory() throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oauth1-config-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.path
  }

  func environment(_ config: String, _ extra: [String: String] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["OAUTH1_CONFIG_DIR"] = config
    environment.removeValue(forKey: "OAUTH1_CONSUMER_SECRET")
    environment.removeValue(forKey: "OAUTH1_TOKEN_SECRET")
    environment.removeValue(forKey: "BROWSER")
    for (key, value) in extra { environment[key] = value }
    return environment
  }

  func expectNoSecret(_ texts: String..., also more: [String] = []) {
    for text in texts {
      for secret in secrets + more where text.contains(secret) {
        Issue.record("a secret (\(secret.prefix(4))…) appears in the output:\n\(text)")
      }
      if text.range(of: #"oauth_signature="[^<]"#, options: .regularExpression) != nil {
        Issue.record("a signature appears in the output:\n\(text)")
      }
    }
  }

  /// Waits for the authorize URL `oauth1 login` prints.
  func authorizeURL(_ login: InteractiveProcess) async throws -> URL {
    guard await login.waitForError(containing: "oauth_token=") else {
      throw CLIFailure(description: "no authorize URL on stderr: \(login.stderr)")
    }
    // Let the rest of the line arrive.
    try await Task.sleep(for: .milliseconds(100))
    guard let line = login.stderr.split(separator: "\n").first(where: { $0.contains("oauth_token=") }),
      let url = URL(string: line.trimmingCharacters(in: .whitespaces))
    else { throw CLIFailure(description: "no authorize URL in: \(login.stderr)") }
    return url
  }

  @Test("NetSuite's rules: a typed verifier, then HMAC-SHA256 requests with the realm")
  func pinLoginThenRequests() async throws {
    let provider = try await FakeOAuthProvider.start(["--methods", "HMAC-SHA256", "--realm", "123456_SB1", "--problem-reporting"])
    let config = try configDirectory()
    let login = try InteractiveProcess(
      PackagePaths.executable("oauth1"),
      [
        "login", "--request-token-url", provider.url("/oauth/request_token"), "--authorize-url", provider.url("/oauth/authorize"),
        "--access-token-url", provider.url("/oauth/access_token"), "--consumer-key", FakeOAuthProvider.consumerKey,
        "--signature-method", "HMAC-SHA256", "--realm", "123456_SB1", "--profile", "netsuite", "--no-browser",
      ], environment: environment(config, ["OAUTH1_CONSUMER_SECRET": FakeOAuthProvider.consumerSecret]))
    let page = try await FakeOAuthProvider.browse(try await authorizeURL(login))
    #expect(page.status == 200)
    #expect(await login.waitForError(containing: "verifier shown after authorizing"))
    login.send(try await provider.lastVerifier())
    let result = await login.wait()
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Logged in (@fake_user). Saved profile netsuite"))

    let file = URL(fileURLWithPath: config).appendingPathComponent("credentials.json")
    let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber
    #expect(mode?.intValue == 0o600)
    let saved = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: [String: [String: Any]]])
    let tokenSecret = try #require(saved["profiles"]?["netsuite"]?["token_secret"] as? String)
    expectNoSecret(result.stdout, result.stderr, also: [tokenSecret])

    // The profile's secrets win over the environment's (left from another provider).
    let request = try await oauth1(
      ["request", "GET", provider.url("/api/items?q=a%2Bb&page=2"), "--profile", "netsuite"],
      environment: environment(config, ["OAUTH1_CONSUMER_SECRET": "another-providers-secret", "OAUTH1_TOKEN_SECRET": "another-token-secret"]))
    let answer = try echo(request)
    #expect(answer["realm"] as? String == "123456_SB1")
    #expect(answer["signature_method"] as? String == "HMAC-SHA256")
    #expect((answer["query"] as? [[String]])?.contains(["q", "a+b"]) == true)
    expectNoSecret(request.stdout, request.stderr, also: [tokenSecret])
  }

  @Test("Jira's rules: RSA-SHA1, the verifier received by the loopback callback server")
  func loopbackLoginWithRSA() async throws {
    let (keyFile, certificateFile) = try rsaKeyFiles()
    let provider = try await FakeOAuthProvider.start(["--methods", "RSA-SHA1", "--rsa-public-key", certificateFile.path, "--problem-reporting"])
    let config = try configDirectory()
    let login = try InteractiveProcess(
      PackagePaths.executable("oauth1"),
      [
        "login", "--request-token-url", provider.url("/oauth/request_token"), "--authorize-url", provider.url("/oauth/authorize"),
        "--access-token-url", provider.url("/oauth/access_token"), "--consumer-key", FakeOAuthProvider.consumerKey,
        "--signature-method", "RSA-SHA1", "--private-key", keyFile.path, "--callback", "loopback", "--profile", "jira", "--no-browser",
      ], environment: environment(config))
    // Another page on the machine poking the callback port does not end the login.
    let authorize = try await authorizeURL(login)
    #expect(await login.waitForError(containing: "/callback ..."))
    let waiting = try #require(login.stderr.split(separator: "\n").first { $0.contains("Waiting for the provider") })
    let callback = try #require(waiting.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") })
    let poke = try await FakeOAuthProvider.browse(try #require(URL(string: callback + "?oauth_verifier=forged")))
    #expect(poke.status == 400)
    // The browser: the provider redirects it to the command's own callback server.
    let page = try await FakeOAuthProvider.browse(authorize)
    #expect(page.status == 200 && page.body.contains("Authorized"), "\(page.body)")
    let result = await login.wait()
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("Waiting for the provider to redirect to http://127.0.0.1:"))

    let request = try await oauth1(
      ["request", "POST", provider.url("/api/issue"), "--profile", "jira", "-d", "summary=Ünïcode & co"], environment: environment(config))
    let answer = try echo(request)
    #expect(answer["signature_method"] as? String == "RSA-SHA1")
    #expect((answer["form"] as? [[String]]) == [["summary", "Ünïcode & co"]])
    expectNoSecret(result.stdout, result.stderr, request.stdout, request.stderr)
  }

  @Test("WooCommerce's rules: one-legged, HMAC-SHA256, the protocol parameters in the query")
  func oneLeggedQuerySigning() async throws {
    let provider = try await FakeOAuthProvider.start(["--methods", "HMAC-SHA256,HMAC-SHA1", "--one-legged"])
    let request = try await oauth1(
      [
        "request", "GET", provider.url("/api/wc/v3/orders?per_page=5&status=on-hold"), "--provider", "woocommerce", "--site", provider.url("/"),
        "--consumer-key", FakeOAuthProvider.consumerKey,
      ], environment: environment(try configDirectory(), ["OAUTH1_CONSUMER_SECRET": FakeOAuthProvider.consumerSecret]))
    let answer = try echo(request)
    #expect(answer["signature_type"] as? String == "query")
    #expect(answer["signature_method"] as? String == "HMAC-SHA256")
    #expect(answer["token"] is NSNull)
    expectNoSecret(request.stdout, request.stderr)
  }

  @Test("Discogs' rules: PLAINTEXT and a required User-Agent")
  func plaintextWithAUserAgent() async throws {
    let provider = try await FakeOAuthProvider.start(["--methods", "PLAINTEXT", "--require-header", "User-Agent"])
    let arguments = [
      "request", "GET", provider.url("/api/identity"), "--signature-method", "PLAINTEXT", "--consumer-key", FakeOAuthProvider.consumerKey,
      "--token", FakeOAuthProvider.accessToken,
    ]
    let env = environment(
      try configDirectory(),
      ["OAUTH1_CONSUMER_SECRET": FakeOAuthProvider.consumerSecret, "OAUTH1_TOKEN_SECRET": FakeOAuthProvider.accessTokenSecret])
    let answer = try echo(try await oauth1(arguments + ["-H", "User-Agent: MyDiscogsApp/1.0"], environment: env))
    #expect(answer["signature_method"] as? String == "PLAINTEXT")
    #expect(answer["user_agent"] as? String == "MyDiscogsApp/1.0")
    // The provider profile sends a User-Agent of its own.
    let profiled = try echo(try await oauth1(arguments + ["--provider", "discogs"], environment: env))
    #expect((profiled["user_agent"] as? String)?.hasPrefix("oauth1-swift/") == true)
  }

  @Test("Mastercard's rules: RSA-SHA256 and a SHA-256 body hash on an empty POST, one-legged")
  func bodyHashOnAnEmptyPost() async throws {
    let (keyFile, certificateFile) = try rsaKeyFiles()
    let provider = try await FakeOAuthProvider.start([
      "--methods", "RSA-SHA256", "--rsa-public-key", certificateFile.path, "--body-hash", "sha256", "--one-legged",
    ])
    let env = environment(try configDirectory())
    let arguments = [
      "--provider", "mastercard", "--site", provider.url("/"), "--consumer-key", FakeOAuthProvider.consumerKey, "--private-key", keyFile.path,
    ]
    let empty = try echo(try await oauth1(["request", "POST", provider.url("/api/fraud/inquiry")] + arguments, environment: env))
    #expect(empty["signature_method"] as? String == "RSA-SHA256" && empty["body_length"] as? Int == 0)
    let json = try echo(
      try await oauth1(["request", "POST", provider.url("/api/fraud/inquiry"), "--json", #"{"id":1}"#] + arguments, environment: env))
    #expect(json["content_type"] as? String == "application/json" && json["body_length"] as? Int == 8)
    // Without the profile's body hash the provider refuses.
    let refused = try await oauth1(
      [
        "request", "POST", provider.url("/api/fraud/inquiry"), "--signature-method", "RSA-SHA256", "--consumer-key", FakeOAuthProvider.consumerKey,
        "--private-key", keyFile.path,
      ], environment: env)
    #expect(refused.status == 1)
  }

  @Test("A refusal shows the provider's base string next to ours, with the first difference named")
  func aRefusalExplained() async throws {
    // The provider sits behind a proxy that ends TLS: it verifies against https://api.example.com.
    for style in ["--problem-reporting", "--flickr-debug"] {
      let provider = try await FakeOAuthProvider.start(["--public-url", "https://api.example.com", style])
      let result = try await oauth1(
        [
          "request", "POST", provider.url("/api/items?page=2"), "--consumer-key", FakeOAuthProvider.consumerKey, "--token",
          FakeOAuthProvider.accessToken, "-d", "password=hunter2",
        ],
        environment: environment(
          try configDirectory(),
          ["OAUTH1_CONSUMER_SECRET": FakeOAuthProvider.consumerSecret, "OAUTH1_TOKEN_SECRET": FakeOAuthProvider.accessTokenSecret]))
      #expect(result.status == 1)
      #expect(result.stderr.contains("The provider refused the request (HTTP 401): signature_invalid"), "\(style): \(result.stderr)")
      #expect(
        result.stderr.contains("differs from ours in the scheme: we signed http, the provider https"), "\(style): \(result.stderr)")
      #expect(result.stderr.contains("the host: we signed 127.0.0.1, the provider api.example.com"))
      #expect(result.stderr.contains("  provider: POST&https%3A%2F%2Fapi.example.com%2Fapi%2Fitems&"))
      #expect(result.stderr.contains("password%3D%3Credacted%3E"), "\(result.stderr)")
      expectNoSecret(result.stdout, result.stderr, also: ["hunter2"])
    }
  }

  /// Flickr's JSON refusal (`{"stat":"fail","code":96,...,"debug_sbs":"GET&..."}`): its base
  /// string is found in the JSON and diffed with ours.
  @Test("A refusal with the provider's base string in a JSON body is explained with it")
  func aJSONRefusalExplained() async throws {
    let provider = try await FakeOAuthProvider.start(["--public-url", "https://api.example.com"])
    let result = try await oauth1(
      [
        "request", "GET", provider.url("/api/flickr-json/photos?page=2"), "--consumer-key", FakeOAuthProvider.consumerKey, "--token",
        FakeOAuthProvider.accessToken,
      ],
      environment: environment(
        try configDirectory(),
        ["OAUTH1_CONSUMER_SECRET": FakeOAuthProvider.consumerSecret, "OAUTH1_TOKEN_SECRET": FakeOAuthProvider.accessTokenSecret]))
    #expect(result.status == 1)
    #expect(!result.stderr.contains("It sent no base string of its own"), "\(result.stderr)")
    #expect(result.stderr.contains("differs from ours in the scheme: we signed http, the provider https"), "\(result.stderr)")
    #expect(result.stderr.contains("  provider: GET&https%3A%2F%2Fapi.example.com%2Fapi%2Fflickr-json%2Fphotos&"))
    expectNoSecret(result.stdout, result.stderr)
  }

  @Test("A redirect is signed again for where it goes, and never signed for another origin")
  func redirects() async throws {
    let provider = try await FakeOAuthProvider.start(), elsewhere = try await FakeOAuthProvider.start()
    let env = environment(
      try configDirectory(), ["OAUTH1_CONSUMER_SECRET": FakeOAuthProvider.consumerSecret, "OAUTH1_TOKEN_SECRET": FakeOAuthProvider.accessTokenSecret])
    let credentials = ["--consumer-key", FakeOAuthProvider.consumerKey, "--token", FakeOAuthProvider.accessToken]
    // Same origin: followed, and signed for the new URL (oauthlib verifies it there).
    let moved = try await oauth1(["request", "GET", provider.url("/redirect?to=%2Fapi%2Fitems%3Fpage%3D2")] + credentials, environment: env)
    let answer = try echo(moved)
    #expect(answer["path"] as? String == "/api/items" && (answer["query"] as? [[String]]) == [["page", "2"]])
    // Another origin: followed without the Authorization header, so the other server refuses.
    let target = elsewhere.url("/api/items").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    let away = try await oauth1(["request", "GET", provider.url("/redirect?to=\(target)")] + credentials, environment: env)
    #expect(away.status == 1, "\(away.stdout)\(away.stderr)")
    let (data, _) = try await URLSession.tests.data(from: elsewhere.baseURL.appendingPathComponent("_control/stats"))
    let stats = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let requests = try #require(stats["requests"] as? [[String: Any]])
    #expect(requests.count == 1 && requests[0]["authorization"] as? Bool == false, "\(requests)")
    expectNoSecret(moved.stdout, moved.stderr, away.stdout, away.stderr)
  }

  @Test("Exit status, -i and -o")
  func statusIncludeAndOutput() async throws {
    let provider = try await FakeOAuthProvider.start()
    let env = environment(
      try configDirectory(), ["OAUTH1_CONSUMER_SECRET": FakeOAuthProvider.consumerSecret, "OAUTH1_TOKEN_SECRET": FakeOAuthProvider.accessTokenSecret])
    let credentials = ["--consumer-key", FakeOAuthProvider.consumerKey, "--token", FakeOAuthProvider.accessToken]
    let missing = try await oauth1(["request", "GET", provider.url("/api/status/404")] + credentials, environment: env)
    #expect(missing.status == 1 && missing.stdout.isEmpty)
    #expect(missing.stderr.contains("HTTP 404") && missing.stderr.contains(#"{"error": "asked for 404"}"#), "\(missing.stderr)")

    let included = try await oauth1(["request", "GET", provider.url("/api/items"), "-i"] + credentials, environment: env)
    #expect(included.status == 0 && included.stdout.hasPrefix("HTTP 200 "))
    #expect(included.stdout.contains("\r\n\r\n{"))

    let file = FileManager.default.temporaryDirectory.appendingPathComponent("oauth1-body-\(UUID().uuidString).json")
    let written = try await oauth1(["request", "GET", provider.url("/api/items"), "-o", file.path] + credentials, environment: env)
    #expect(written.status == 0 && written.stdout.isEmpty)
    #expect(try String(contentsOf: file, encoding: .utf8).contains(#""path": "/api/items""#))

    let verbose = try await oauth1(["request", "POST", provider.url("/api/items"), "-v", "-d", "a=1"] + credentials, environment: env)
    #expect(verbose.status == 0)
    #expect(verbose.stderr.contains("4. Signature base string") && verbose.stderr.contains("<redacted: secret>"))
    expectNoSecret(verbose.stdout, verbose.stderr, missing.stderr, included.stdout)

    let unreachable = try await oauth1(["request", "GET", "http://127.0.0.1:9/api"] + credentials, environment: env)
    #expect(unreachable.status == 3)
  }

  @Test("-i on a refusal prints, as curl -i does, the status line, the headers, a blank line and the body on stdout, and exits 1")
  func includeOnARefusal() async throws {
    let env = environment(
      try configDirectory(), ["OAUTH1_CONSUMER_SECRET": FakeOAuthProvider.consumerSecret, "OAUTH1_TOKEN_SECRET": FakeOAuthProvider.accessTokenSecret])
    let credentials = ["--consumer-key", FakeOAuthProvider.consumerKey, "--token", FakeOAuthProvider.accessToken]
    let provider = try await FakeOAuthProvider.start()
    let missing = try await oauth1(["request", "GET", provider.url("/api/status/404"), "-i"] + credentials, environment: env)
    #expect(missing.status == 1)
    #expect(missing.stdout.hasPrefix("HTTP 404 Not Found\r\n") && missing.stdout.contains("\r\nContent-Type: application/json\r\n"))
    #expect(missing.stdout.hasSuffix("\r\n\r\n{\"error\": \"asked for 404\"}"), "\(missing.stdout)")
    #expect(missing.stderr.contains("the provider answered HTTP 404") && !missing.stderr.contains("asked for 404"), "\(missing.stderr)")

    // A signature refusal in Atlassian's format, which echoes the signature and the base string
    // (with the signed password): both hidden on stdout, the explanation on stderr.
    let atlassian = try await FakeOAuthProvider.start(["--public-url", "https://api.example.com", "--problem-reporting"])
    let refused = try await oauth1(
      ["request", "POST", atlassian.url("/api/items"), "-i", "-d", "password=hunter2"] + credentials, environment: env)
    #expect(refused.status == 1)
    let (head, body) = try #require(
      refused.stdout.range(of: "\r\n\r\n").map { (refused.stdout[..<$0.lowerBound], refused.stdout[$0.upperBound...]) }, "\(refused.stdout)")
    #expect(head.hasPrefix("HTTP 401 Unauthorized\r\n") && head.contains("WWW-Authenticate: OAuth realm="), "\(head)")
    #expect(body.hasPrefix("oauth_problem=signature_invalid&") && body.contains("oauth_signature=<redacted>"), "\(body)")
    #expect(body.contains("oauth_signature_base_string=POST%26https%253A%252F%252Fapi.example.com"), "\(body)")
    #expect(refused.stderr.contains("The provider refused the request (HTTP 401): signature_invalid"), "\(refused.stderr)")
    expectNoSecret(refused.stdout, refused.stderr, missing.stdout, missing.stderr, also: ["hunter2"])
  }

  @Test("Usage errors name what is missing")
  func usageErrors() async throws {
    let env = environment(try configDirectory())
    let noProfile = try await oauth1(["request", "GET", "https://api.example.com/", "--profile", "nope"], environment: env)
    #expect(noProfile.status == 2 && noProfile.stderr.contains("no profile is named \"nope\""))
    let oneLegged = try await oauth1(
      ["login", "--provider", "woocommerce", "--site", "https://shop.example", "--consumer-key", "k", "--consumer-secret", "s", "--profile", "p"],
      environment: env)
    #expect(oneLegged.status == 2 && oneLegged.stderr.contains("woocommerce has no three-legged flow"))
    let siteless = try await oauth1(
      ["request", "GET", "https://jira.example.com/rest", "--provider", "jira", "--consumer-key", "k"], environment: env)
    #expect(siteless.status == 2 && siteless.stderr.contains("the jira profile needs the Jira server's URL"))
    let relative = try await oauth1(["request", "GET", "/rest", "--consumer-key", "k", "--consumer-secret", "s"], environment: env)
    #expect(relative.status == 2 && relative.stderr.contains("not an absolute http or https URL"))
    expectNoSecret(noProfile.stderr, oneLegged.stderr, siteless.stderr, relative.stderr)
  }

  /// The OAuth wiki's published RSA key and certificate (`Vectors/`), as PEM files.
  func rsaKeyFiles() throws -> (key: URL, certificate: URL) {
    let wiki = try #require(try VectorFile.loadAll().first { $0.name == "oauth-wiki-testcases.json" })
    let key = try #require(wiki.vectors.compactMap(\.input.rsaPrivateKeyPEM).first)
    let certificate = try #require(wiki.vectors.compactMap(\.input.rsaCertificatePEM).first)
    return (try temporaryFile(named: "key.pem", contents: Data(key.utf8)), try temporaryFile(named: "cert.pem", contents: Data(certificate.utf8)))
  }
}
