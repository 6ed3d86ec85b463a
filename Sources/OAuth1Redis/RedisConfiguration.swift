import Foundation

/// Where the Redis server is and how to talk to it: address, credentials, database, timeouts
/// and how many connections to keep. Read from a `redis://` URL or set field by field.
///
/// `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]`: a password alone authenticates as the default
/// user (`requirepass`), a user and password as an ACL user; user and password are
/// percent-decoded; a userinfo without a colon is the password, as `redis-cli` reads it.
/// `rediss://` is the same over TLS: the server's certificate is verified against the system's
/// trust store (or ``tlsCAFile``) and must name the host.
///
/// ```swift
/// var configuration = try RedisConfiguration(url: "redis://tool:s3cret@10.0.0.7:6379/2")
/// configuration.poolSize = 16          // at most 16 commands in flight, on 16 threads
/// configuration.commandTimeout = 0.5   // seconds
/// ```
///
/// Its `description` shows the password as `***`.
public struct RedisConfiguration: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
  /// The host name or address (an IPv6 address without brackets).
  public var host: String
  /// The TCP port; 6379 by default.
  public var port: Int
  /// The ACL user for `AUTH user password`; `nil` authenticates as the default user.
  public var username: String?
  /// The password sent with `AUTH`; `nil` sends no `AUTH`.
  public var password: String?
  /// The database chosen with `SELECT` after connecting; 0 by default (no `SELECT`).
  public var database: Int
  /// How long opening a connection (and its `AUTH` and `SELECT`) may take, in seconds; 2 by default.
  public var connectTimeout: Double
  /// How long one command may take, from when it is asked for (its wait for a free connection
  /// included) to its whole answer, in seconds; 1 by default. Checked on every read, so a server
  /// that keeps sending slowly is cut off at it too.
  public var commandTimeout: Double
  /// How many connections are kept, each with its own thread: the most commands in flight at
  /// once (at least 1; 4 by default). Size it for the verifications you serve at once; more
  /// wait their turn.
  public var poolSize: Int
  /// The most bytes one reply may take; 65,536 by default. The store's commands are answered in
  /// a few bytes (`+OK`, `$-1`), so a longer reply is a server that is not Redis or is hostile:
  /// it is refused as soon as its header or its size says so, and the command fails closed.
  public var maximumReplyBytes: Int = 65_536
  /// The most commands waiting for a free connection; 1,024 by default. Past it a command fails
  /// at once (the verification is refused as `temporarily_unavailable`) rather than queue
  /// without bound behind a Redis that has stopped answering.
  public var maximumQueuedCommands: Int = 1024
  /// Whether to speak TLS (`rediss://`): to a Redis `tls-port`, through OpenSSL's libssl, TLS 1.2
  /// or later; `false` by default.
  public var useTLS: Bool = false
  /// The CA certificates (PEM) that sign the server's certificate; `nil` (the default) for the
  /// system's trust store, which the `SSL_CERT_FILE` and `SSL_CERT_DIR` variables override.
  public var tlsCAFile: String?
  /// The client certificate (PEM, with its chain) for a server with `tls-auth-clients yes`
  /// (Redis's default); give ``tlsKeyFile`` with it. `nil` by default.
  public var tlsCertificateFile: String?
  /// The client certificate's private key (PEM, unencrypted); `nil` by default.
  public var tlsKeyFile: String?

  /// A configuration given field by field; see the properties for each default.
  public init(
    host: String = "127.0.0.1", port: Int = 6379, username: String? = nil, password: String? = nil, database: Int = 0,
    connectTimeout: Double = 2, commandTimeout: Double = 1, poolSize: Int = 4
  ) {
    self.host = host
    self.port = port
    self.username = username
    self.password = password
    self.database = database
    self.connectTimeout = connectTimeout
    self.commandTimeout = commandTimeout
    self.poolSize = max(1, poolSize)
  }

  /// Reads `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]` or `rediss://...` (TLS); timeouts, pool
  /// size and TLS files take their defaults.
  /// - Throws: ``RedisNonceStoreError/invalidURL(reason:)`` naming the part that is wrong.
  public init(url: String) throws(RedisNonceStoreError) {
    self.init()
    let lowered = url.lowercased()
    useTLS = lowered.hasPrefix("rediss://")
    guard useTLS || lowered.hasPrefix("redis://") else {
      let scheme = url.range(of: "://").map { String(url[..<$0.lowerBound]) } ?? url
      throw .invalidURL(reason: "the scheme is \"\(Self.redacting(scheme))\", not redis:// or rediss://")
    }
    var rest = Substring(url.dropFirst((useTLS ? "rediss://" : "redis://").count))
    if rest.contains("?") || rest.contains("#") {
      throw .invalidURL(reason: "a query or fragment is not read; give the database as the path (/2)")
    }
    // The userinfo ends at the last "@": a password may hold an unencoded "/" or "@", and no
    // other part of the URL may hold an "@".
    if let at = rest.lastIndex(of: "@") {
      let userinfo = rest[..<at]
      rest = rest[rest.index(after: at)...]
      let colon = userinfo.firstIndex(of: ":")
      let user = String(userinfo[..<(colon ?? userinfo.endIndex)])
      guard let decodedUser = user.removingPercentEncoding else { throw .invalidURL(reason: "the user name has a malformed %-escape") }
      username = decodedUser.isEmpty ? nil : decodedUser
      if let colon {
        guard let decoded = String(userinfo[userinfo.index(after: colon)...]).removingPercentEncoding else {
          throw .invalidURL(reason: "the password has a malformed %-escape")
        }
        password = decoded
      } else if username != nil {
        // redis://secret@host: a lone userinfo is the password, as redis-cli and most clients read it.
        password = username
        username = nil
      }
    }
    let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
    var authority = rest[..<authorityEnd]
    rest = rest[authorityEnd...]
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { throw .invalidURL(reason: "the IPv6 address has no closing ]") }
      host = String(authority[authority.index(after: authority.startIndex)..<close])
      authority = authority[authority.index(after: close)...]
      if !authority.isEmpty && !authority.hasPrefix(":") { throw .invalidURL(reason: "expected :PORT after the IPv6 address") }
    } else {
      let colon = authority.firstIndex(of: ":") ?? authority.endIndex
      host = String(authority[..<colon])
      authority = authority[colon...]
    }
    guard !host.isEmpty else { throw .invalidURL(reason: "the host is missing") }
    if authority.hasPrefix(":") {
      guard let number = Int(authority.dropFirst()), (1...65535).contains(number) else {
        throw .invalidURL(reason: "the port \"\(authority.dropFirst())\" is not a number from 1 to 65535")
      }
      port = number
    }
    let path = rest.drop { $0 == "/" }
    if !path.isEmpty {
      guard let number = Int(path), number >= 0 else { throw .invalidURL(reason: "the path \"/\(path)\" is not a database number") }
      database = number
    }
  }

  /// The URL with the password shown as `***`.
  public var description: String {
    var userinfo = ""
    if let username { userinfo = username }
    if password != nil { userinfo += ":***" }
    if !userinfo.isEmpty { userinfo += "@" }
    let shownHost = host.contains(":") ? "[\(host)]" : host
    return "\(useTLS ? "rediss" : "redis")://\(userinfo)\(shownHost):\(port)/\(database)"
  }

  /// Shows the fields with the password as `***`, so `dump` and debuggers do not print it.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "host": host, "port": port, "username": username as Any, "password": password == nil ? "nil" : "***", "database": database,
        "connectTimeout": connectTimeout, "commandTimeout": commandTimeout, "poolSize": poolSize,
        "maximumReplyBytes": maximumReplyBytes, "maximumQueuedCommands": maximumQueuedCommands, "useTLS": useTLS,
        "tlsCAFile": tlsCAFile as Any, "tlsCertificateFile": tlsCertificateFile as Any, "tlsKeyFile": tlsKeyFile as Any,
      ], displayStyle: .struct)
  }

  /// A scheme shown in an error: at most 16 characters, so a password typed in its place is not echoed whole.
  private static func redacting(_ text: String) -> String {
    text.count <= 16 && !text.contains("@") ? text : String(text.prefix(3)) + "…"
  }
}
