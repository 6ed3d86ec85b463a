/// Why the Redis nonce store could not answer, or could not be configured. A verifier that
/// meets one of these while recording a nonce refuses the request as `temporarily_unavailable`
/// (HTTP 503) and keeps this error's description in `OAuthVerificationError.cause`.
///
/// No case holds the password: a URL is shown with its password replaced by `***`.
///
/// ```swift
/// do {
///   try await store.ping()
/// } catch RedisNonceStoreError.authenticationFailed(let user, _) {
///   print("check the password of \(user ?? "the default user")")
/// }
/// ```
public enum RedisNonceStoreError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The URL cannot be read; `reason` says which part and what is expected.
  case invalidURL(reason: String)
  /// The TLS settings cannot be used: a CA, certificate or key file that cannot be read.
  case tlsConfiguration(reason: String)
  /// The TLS handshake failed: the server's certificate was refused (not signed by a trusted
  /// CA, or not for this host), the server asked for a client certificate, or it speaks no TLS.
  case tlsFailed(host: String, port: Int, reason: String)
  /// The host name could not be resolved.
  case cannotResolve(host: String, reason: String)
  /// No connection could be opened (refused, unreachable): Redis is down, restarting, or elsewhere.
  case cannotConnect(host: String, port: Int, reason: String)
  /// Redis did not answer in time; `operation` is `connect` or the command.
  case timedOut(host: String, port: Int, operation: String, seconds: Double)
  /// Redis closed the connection in the middle of a command (a restart, `CLIENT KILL`, a
  /// `timeout` setting); the next command opens a new one.
  case connectionClosed(host: String, port: Int)
  /// `AUTH` was refused: a wrong password, or an unknown or disabled ACL user.
  case authenticationFailed(user: String?, serverSaid: String)
  /// `SELECT` was refused: the database number is beyond the server's `databases` setting.
  case databaseUnavailable(database: Int, serverSaid: String)
  /// Redis answered a command with an error (`NOAUTH`, `NOPERM`, `OOM`, `READONLY`, ...).
  case serverError(command: String, serverSaid: String)
  /// Redis's answer was not the RESP expected: not a Redis server on that port, or a bug.
  case protocolViolation(String)
  /// The store was shut down; make a new one.
  case shutDown
  /// `queued` commands were already waiting for a connection (``RedisConfiguration/maximumQueuedCommands``):
  /// Redis is not keeping up, or the pool is too small for the load.
  case overloaded(queued: Int)

  public var description: String {
    switch self {
    case .invalidURL(let reason):
      return "the Redis URL cannot be used: \(reason); write redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]"
    case .tlsConfiguration(let reason):
      return "the TLS settings for Redis cannot be used: \(reason)"
    case .tlsFailed(let host, let port, let reason):
      return
        "the TLS handshake with Redis at \(host):\(port) failed: \(reason); check the CA (tlsCAFile, or SSL_CERT_FILE), that the certificate names the host in the URL, and that the port is Redis's tls-port"
    case .cannotResolve(let host, let reason):
      return "cannot resolve the Redis host \(host): \(reason); check the host name in the URL"
    case .cannotConnect(let host, let port, let reason):
      return "cannot connect to Redis at \(host):\(port): \(reason); is redis-server running there?"
    case .timedOut(let host, let port, let operation, let seconds):
      return "Redis at \(host):\(port) did not answer \(operation) within \(seconds) s; it may be overloaded or unreachable"
    case .connectionClosed(let host, let port):
      return "Redis at \(host):\(port) closed the connection during a command (restarted?); the next command reconnects"
    case .authenticationFailed(let user, let serverSaid):
      let who = user.map { "as user \($0)" } ?? "with the password"
      return "Redis refused AUTH \(who): \(serverSaid); check the credentials in the URL"
    case .databaseUnavailable(let database, let serverSaid):
      return "Redis refused SELECT \(database): \(serverSaid); use a database below the server's `databases` setting"
    case .serverError(let command, let serverSaid):
      return "Redis refused \(command): \(serverSaid)"
    case .protocolViolation(let what):
      return "the Redis server's answer is not valid RESP: \(what); is it a Redis server on that port?"
    case .shutDown:
      return "the Redis nonce store was shut down"
    case .overloaded(let queued):
      return "\(queued) Redis commands are already waiting for a connection; Redis is slow or the pool too small (raise poolSize)"
    }
  }
}
