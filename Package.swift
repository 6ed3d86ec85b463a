// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "OAuth1",
  // Supported and tested: Linux (CI, Debian 12, OpenSSL 3 from libssl-dev). Supported, not tested
  // here: macOS 13 or later with Homebrew's OpenSSL found through pkg-config. Not supported: iOS,
  // tvOS, watchOS, visionOS, which have neither pkg-config nor a system OpenSSL.
  platforms: [.macOS(.v13)],
  products: [
    .library(name: "OAuth1", targets: ["OAuth1"]),
    .library(name: "NetworkClient", targets: ["NetworkClient"]),
    .library(name: "OAuthNetworking", targets: ["OAuthNetworking"]),
    .library(name: "OAuth2", targets: ["OAuth2"]),
    .library(name: "XAPI", targets: ["XAPI"]),
    .library(name: "XArchive", targets: ["XArchive"]),
    .library(name: "LTI", targets: ["LTI"]),
    // Test doubles for your own tests: a scripted transport and a sleeper that does not wait;
    // a hand-moved clock and predictable nonces.
    .library(name: "NetworkClientTesting", targets: ["NetworkClientTesting"]),
    .library(name: "OAuth1Testing", targets: ["OAuth1Testing"]),
    // A nonce store in Redis, shared by every process that verifies: its own product, so that
    // OAuth1 needs nothing new.
    .library(name: "OAuth1Redis", targets: ["OAuth1Redis"]),
    .executable(name: "oauth1", targets: ["oauth1"]),
    .executable(name: "tweets", targets: ["tweets"]),
  ],
  dependencies: [],
  targets: [
    // The system's OpenSSL: libcrypto, for CryptoPrimitives, and libssl, for OAuth1Redis's
    // rediss:// (and the benchmark's baseline). No other module imports it.
    .systemLibrary(
      name: "COpenSSL",
      pkgConfig: "openssl",
      providers: [.apt(["libssl-dev"]), .brew(["openssl"])]
    ),
    // The crypto primitives, at the bottom of the graph: digests, HMAC (with prepared keys),
    // RSA signatures, secure random bytes, constant-time comparison and the wiping of secrets.
    // Package access only; it throws its own CryptoError.
    .target(name: "CryptoPrimitives", dependencies: ["COpenSSL"]),
    // RFC 3986 percent-encoding, shared by the signer and the network client.
    .target(name: "PercentEncoding"),
    // The date forms the package reads and writes (RFC 3339, HTTP dates, X's v1.1 form), each
    // once, on Foundation's format styles.
    .target(name: "DateFormats"),
    // Locked, the package's one lock type (and its waiting), at the bottom of the graph so that
    // every module can use it; NetworkClient re-exports it, as part of its public API.
    .target(name: "Locking"),
    // Signing and verification of OAuth 1.0a requests. No networking.
    .target(name: "OAuth1", dependencies: ["CryptoPrimitives", "PercentEncoding", "Locking"]),
    // The Redis nonce store: RESP spoken over POSIX sockets (no hiredis, so `swift test` builds
    // with nothing but Swift and libssl-dev), on threads of its own; TLS through COpenSSL's libssl.
    .target(name: "OAuth1Redis", dependencies: ["OAuth1", "COpenSSL", "Locking"]),
    // A generic HTTP client whose side effects live in request behaviors. Knows no OAuth.
    // libcurl, for NetworkClient's CurlTransport (the default on Linux), loaded at run time from
    // libcurl.so.4 (which FoundationNetworking links): the small part of its API the transport
    // uses is declared in the module, so no libcurl development package is needed to build.
    .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
    .target(name: "NetworkClient", dependencies: ["PercentEncoding", "Locking", "DateFormats", "CCurl"]),
    // Test doubles, shipped as their own products (not in the production modules).
    .target(name: "NetworkClientTesting", dependencies: ["NetworkClient"]),
    .target(name: "OAuth1Testing", dependencies: ["OAuth1", "Locking"]),
    // The bridge: signs NetworkClient requests with OAuth1, and the three-legged flow.
    .target(name: "OAuthNetworking", dependencies: ["OAuth1", "NetworkClient", "PercentEncoding"]),
    // An OAuth 2.0 client for any provider: PKCE, the authorize URL, the token and revoke
    // endpoints (X's OAuth 1.0a exchange too). Its digest comes from CryptoPrimitives.
    .target(name: "OAuth2", dependencies: ["CryptoPrimitives", "NetworkClient", "PercentEncoding", "Loopback"]),
    // LTI 1.1 for tools and platforms: verified typed launches, Basic Outcomes signed with
    // oauth_body_hash, Content-Item 1.0, the LTI 1.3 migration claim. OAuthNetworking signs the
    // outcome requests NetworkClient sends; CryptoPrimitives only for its constant-time comparison.
    .target(name: "LTI", dependencies: ["OAuth1", "NetworkClient", "OAuthNetworking", "CryptoPrimitives"]),
    // The X (Twitter) API client, v2 and v1.1.
    // CryptoPrimitives for the webhooks' HMAC-SHA256 and constant-time comparison.
    .target(name: "XAPI", dependencies: ["OAuth1", "NetworkClient", "OAuthNetworking", "DateFormats", "CryptoPrimitives"]),
    // The system's SQLite, for the archive only: a user of OAuth1 or XAPI alone needs no SQLite.
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),
    // An SQLite archive of tweets and users (tweets --db): deduplicated, resumable, queryable.
    .target(name: "XArchive", dependencies: ["XAPI", "CSQLite", "DateFormats", "Locking"]),
    // The one X emulator: offline, in process (tweets --sandbox) or over loopback HTTP (tweets
    // sandbox serve, and the tests, behind an oauthlib-verifying proxy).
    .target(
      name: "XSandbox", dependencies: ["OAuth1", "OAuth2", "XAPI", "NetworkClient", "PercentEncoding", "DateFormats", "Loopback", "CryptoPrimitives"]),
    // The logic of the tweets command: profiles, output formats, exit codes, wiring.
    .target(
      name: "TweetsCore",
      dependencies: [
        "XAPI", "XArchive", "OAuth2", "OAuthNetworking", "NetworkClient", "OAuth1", "CommandLineSupport", "DateFormats", "CryptoPrimitives",
        "Loopback",
      ]),
    // The loopback HTTP plumbing: a listener on 127.0.0.1 and [::1], an HTTP server with named
    // limits, and the one redirect receiver of OAuth 2.0 logins and `oauth1 login`. Below OAuth2
    // and the command-line tools, so that OAuth2 does not build the tools' argument parser.
    .target(name: "Loopback", dependencies: ["Locking", "PercentEncoding"]),
    // The small argument parser shared by the command-line tools.
    .target(name: "CommandLineSupport", dependencies: ["Locking"]),
    .executableTarget(
      name: "oauth1",
      dependencies: ["OAuth1", "OAuth1Redis", "OAuthNetworking", "NetworkClient", "CommandLineSupport", "Loopback", "PercentEncoding", "LTI"]),
    // The executable hands the sandbox (XSandbox) to TweetsCore, which does not depend on it.
    .executableTarget(name: "tweets", dependencies: ["TweetsCore", "XSandbox", "CommandLineSupport"]),
    // Benchmarks: a program that prints figures, not a test.
    .executableTarget(name: "oauth1-bench", dependencies: ["OAuth1", "NetworkClient", "OAuthNetworking", "COpenSSL"]),
    // How tweets hydrate's memory and rate scale with its input (runs the tweets executable).
    .executableTarget(name: "tweets-bench"),
    // The transports' memory and speed over a million signed requests (a program, not a test).
    .executableTarget(name: "network-soak", dependencies: ["NetworkClient", "OAuth1", "OAuthNetworking"]),
    // Verifications per second and latency with the in-memory and the Redis nonce store (it
    // starts its own redis-server); apart, so that oauth1-bench needs no Redis.
    .executableTarget(name: "oauth1-redis-bench", dependencies: ["OAuth1", "OAuth1Redis", "TestSupport"]),

    // Test helpers: the vectors in Vectors/, the pinned Python peer, running processes, a
    // redis-server on a free loopback port.
    .target(name: "TestSupport", dependencies: ["CommandLineSupport", "XSandbox", "Locking", "Loopback"], path: "Tests/TestSupport"),
    .testTarget(name: "OAuth1Tests", dependencies: ["OAuth1", "OAuth1Testing", "TestSupport", "CommandLineSupport", "Loopback"]),
    .testTarget(name: "NetworkClientTests", dependencies: ["NetworkClient", "NetworkClientTesting", "TestSupport", "Loopback", "Locking"]),
    .testTarget(name: "OAuthNetworkingTests", dependencies: ["OAuthNetworking", "NetworkClientTesting", "OAuth1Testing", "TestSupport"]),
    // Recordings/: real X responses recorded by other projects, replayed by the decoder tests.
    .testTarget(name: "OAuth2Tests", dependencies: ["OAuth2", "CryptoPrimitives", "NetworkClientTesting", "TestSupport"]),
    .testTarget(name: "XAPITests", dependencies: ["XAPI", "OAuthNetworking", "NetworkClientTesting", "TestSupport"], exclude: ["Recordings"]),
    .testTarget(
      name: "XSandboxTests",
      dependencies: [
        "XSandbox", "XAPI", "OAuth2", "OAuthNetworking", "OAuth1Testing", "NetworkClientTesting", "TestSupport", "CommandLineSupport", "Loopback",
      ]),
    // Fixtures/: an archive made by the previous release, which opening must upgrade.
    .testTarget(name: "XArchiveTests", dependencies: ["XArchive", "XAPI", "TestSupport"], exclude: ["Fixtures"]),
    .testTarget(name: "TweetsCoreTests", dependencies: ["TweetsCore", "CommandLineSupport", "tweets", "XSandbox"]),
    .testTarget(name: "TweetsCLITests", dependencies: ["tweets", "XAPI", "NetworkClient", "TestSupport", "Loopback"]),
    .testTarget(name: "CommandLineSupportTests", dependencies: ["CommandLineSupport", "TestSupport"]),
    .testTarget(name: "LoopbackTests", dependencies: ["Loopback", "TestSupport", "Locking"]),
    .testTarget(name: "LockingTests", dependencies: ["Locking"]),
    .testTarget(name: "DateFormatsTests", dependencies: ["DateFormats", "TestSupport"]),
    // Against Python's lti package (pinned, .test-deps/python-lti) and oauthlib.
    .testTarget(
      name: "LTITests", dependencies: ["LTI", "OAuth1", "OAuth1Testing", "NetworkClient", "NetworkClientTesting", "TestSupport", "Loopback"]),
    .testTarget(name: "OAuth1CLITests", dependencies: ["oauth1", "OAuth1", "TestSupport", "CommandLineSupport", "NetworkClient", "Loopback", "LTI"]),
    // Against a real redis-server the tests start on a free loopback port.
    .testTarget(name: "OAuth1RedisTests", dependencies: ["OAuth1Redis", "OAuth1", "TestSupport", "CommandLineSupport", "Loopback"]),
    // The fuzz targets' properties over their stored corpora (.ci/fuzz does the fuzzing).
    .testTarget(
      name: "FuzzPropertyTests",
      dependencies: [
        "PercentEncoding", "OAuth1", "OAuth1Redis", "XAPI", "TweetsCore", "CommandLineSupport", "NetworkClient", "Loopback",
      ],
      path: "Tests/Fuzz", exclude: ["Support.swift", "Corpus"]),
  ],
  swiftLanguageModes: [.v6]
)
