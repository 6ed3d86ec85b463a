import COpenSSL
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The TLS settings of a store's `rediss://` connections: one OpenSSL context, made once per
/// store (the trust store is read once, not per connection), shared by its connections.
///
/// Invariant: `context` is a configured `SSL_CTX`, freed once, in `deinit`; it is only read
/// (by `SSL_new`) after `init`, which OpenSSL allows from many threads.
final class TLSClientContext: @unchecked Sendable {
  private let context: OpaquePointer

  /// Server certificates are verified against `caFile` (PEM), or the system's trust store
  /// (which `SSL_CERT_FILE` and `SSL_CERT_DIR` override) when it is `nil`; `certificateFile`
  /// and `keyFile` (PEM) are the client certificate for servers that ask for one.
  init(caFile: String?, certificateFile: String?, keyFile: String?) throws(RedisNonceStoreError) {
    guard let made = SSL_CTX_new(TLS_client_method()) else { throw .tlsConfiguration(reason: Self.openSSLError("SSL_CTX_new")) }
    context = made
    // Every set-up call is checked: one that failed silently would leave a weaker connection
    // (an older protocol, no name check) that still works. Each failure fails closed.
    guard oauth1_tls_require_tls12(context) == 1 else { throw .tlsConfiguration(reason: Self.openSSLError("cannot require TLS 1.2")) }
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
    if let caFile {
      guard SSL_CTX_load_verify_locations(context, caFile, nil) == 1 else {
        throw .tlsConfiguration(reason: "cannot read the CA certificates in \(caFile): \(Self.openSSLError("load"))")
      }
    } else if SSL_CTX_set_default_verify_paths(context) != 1 {
      throw .tlsConfiguration(reason: "cannot read the system's CA certificates: \(Self.openSSLError("load"))")
    }
    switch (certificateFile, keyFile) {
    case (nil, nil):
      break
    case (let certificate?, let key?):
      guard SSL_CTX_use_certificate_chain_file(context, certificate) == 1 else {
        throw .tlsConfiguration(reason: "cannot read the client certificate \(certificate): \(Self.openSSLError("load"))")
      }
      guard SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) == 1, SSL_CTX_check_private_key(context) == 1 else {
        throw .tlsConfiguration(reason: "cannot use the client key \(key) with its certificate: \(Self.openSSLError("load"))")
      }
    default:
      throw .tlsConfiguration(reason: "a client certificate needs both its certificate file and its key file")
    }
  }

  deinit { SSL_CTX_free(context) }

  /// A TLS session over `descriptor` (connected, non-blocking), `wait` bounding each wait of
  /// the handshake; the server's certificate must be valid for `host` (a name or an IP address).
  func connect(
    _ descriptor: Int32, host: String, port: Int, wait: (Int16) throws(RedisNonceStoreError) -> Void
  ) throws(RedisNonceStoreError) -> TLSSession {
    guard let ssl = SSL_new(context) else { throw .tlsConfiguration(reason: Self.openSSLError("SSL_new")) }
    let session = TLSSession(ssl)
    guard SSL_set_fd(ssl, descriptor) == 1 else { throw .tlsFailed(host: host, port: port, reason: Self.openSSLError("SSL_set_fd failed")) }
    // Without the name or address to check, any certificate from a trusted CA would pass.
    if Self.isIPAddress(host) {
      guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host) == 1 else {
        throw .tlsFailed(host: host, port: port, reason: Self.openSSLError("cannot set the address to verify"))
      }
    } else {
      guard oauth1_tls_set_server_name(ssl, host) == 1, SSL_set1_host(ssl, host) == 1 else {
        throw .tlsFailed(host: host, port: port, reason: Self.openSSLError("cannot set the host name to verify"))
      }
    }
    while true {
      ERR_clear_error()
      let result = SSL_connect(ssl)
      if result == 1 { return session }
      switch SSL_get_error(ssl, result) {
      case SSL_ERROR_WANT_READ: try wait(Int16(POLLIN))
      case SSL_ERROR_WANT_WRITE: try wait(Int16(POLLOUT))
      default:
        let verification = SSL_get_verify_result(ssl)
        if verification != X509_V_OK {
          throw .tlsFailed(
            host: host, port: port, reason: "its certificate was refused: \(String(cString: X509_verify_cert_error_string(verification)))")
        }
        throw .tlsFailed(host: host, port: port, reason: Self.openSSLError("the handshake failed"))
      }
    }
  }

  private static func isIPAddress(_ host: String) -> Bool {
    var buffer = [UInt8](repeating: 0, count: 16)
    return inet_pton(AF_INET, host, &buffer) == 1 || inet_pton(AF_INET6, host, &buffer) == 1
  }

  /// The first error on OpenSSL's queue, or `what` when the queue is empty.
  static func openSSLError(_ what: String) -> String {
    let code = ERR_get_error()
    guard code != 0 else { return what }
    var buffer = [CChar](repeating: 0, count: 256)
    ERR_error_string_n(code, &buffer, buffer.count)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

/// One TLS session over a connection's socket. Used by one thread at a time.
///
/// Invariant: `ssl` is freed once, in `deinit`; the socket is not its own (the connection closes it).
final class TLSSession {
  /// What a read or a write came to.
  enum Outcome {
    /// This many bytes were moved.
    case moved(Int)
    /// Try again once the socket is ready for these `poll` events.
    case wait(Int16)
    /// The session or the connection is over.
    case closed
  }

  private let ssl: OpaquePointer

  init(_ ssl: OpaquePointer) { self.ssl = ssl }

  deinit { SSL_free(ssl) }

  func write(_ bytes: UnsafeRawPointer, _ count: Int) -> Outcome {
    outcome(SSL_write(ssl, bytes, Int32(clamping: count)))
  }

  func read(_ bytes: UnsafeMutableRawPointer, _ count: Int) -> Outcome {
    outcome(SSL_read(ssl, bytes, Int32(clamping: count)))
  }

  /// Whether the idle session is over or holds unasked data. Records that are not data (TLS 1.3
  /// session tickets, sent after the handshake) are read and do not count.
  var isStale: Bool {
    if SSL_pending(ssl) > 0 { return true }
    var byte: UInt8 = 0
    ERR_clear_error()
    let result = SSL_peek(ssl, &byte, 1)
    return result > 0 || SSL_get_error(ssl, result) != SSL_ERROR_WANT_READ
  }

  private func outcome(_ result: Int32) -> Outcome {
    if result > 0 { return .moved(Int(result)) }
    switch SSL_get_error(ssl, result) {
    case SSL_ERROR_WANT_READ: return .wait(Int16(POLLIN))
    case SSL_ERROR_WANT_WRITE: return .wait(Int16(POLLOUT))
    default:
      ERR_clear_error()
      return .closed
    }
  }
}
