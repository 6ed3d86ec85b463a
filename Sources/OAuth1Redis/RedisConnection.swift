import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One TCP connection to Redis (over TLS for `rediss://`), in non-blocking mode: every wait is
/// a `poll` bounded by a deadline, so a server that stops answering costs at most the timeout.
/// Authenticated and on its database once made. Used by one pool thread at a time; not thread-safe itself.
///
/// Invariant: `descriptor` is open until ``close()``, which closes it once. After an I/O error,
/// a timeout or a protocol violation the connection is closed and must not be used again.
final class RedisConnection {
  private var descriptor: Int32
  private let configuration: RedisConfiguration
  /// The TLS session over the socket, for `rediss://`.
  private var tls: TLSSession?
  /// The replies as their bytes arrive.
  private var reader: RESPReader

  /// Connects to the configured server within `connectTimeout` (the TLS handshake through
  /// `tlsContext` when there is one), then sends `AUTH` and `SELECT` as configured.
  init(_ configuration: RedisConfiguration, tlsContext: TLSClientContext? = nil) throws(RedisNonceStoreError) {
    self.configuration = configuration
    reader = RESPReader(limits: .init(maximumReplyBytes: configuration.maximumReplyBytes))
    let deadline = Date().addingTimeInterval(configuration.connectTimeout)
    descriptor = try Self.connect(configuration, until: deadline)
    do throws(RedisNonceStoreError) {
      if let tlsContext {
        tls = try tlsContext.connect(descriptor, host: configuration.host, port: configuration.port) { events throws(RedisNonceStoreError) in
          try wait(for: events, name: "the TLS handshake", until: deadline)
        }
      }
      if let password = configuration.password {
        let command = configuration.username.map { ["AUTH", $0, password] } ?? ["AUTH", password]
        if case .error(let message) = try roundTrip(command, name: "AUTH", until: deadline) {
          throw .authenticationFailed(user: configuration.username, serverSaid: RESP.shown(message))
        }
      }
      if configuration.database != 0 {
        if case .error(let message) = try roundTrip(["SELECT", String(configuration.database)], name: "SELECT", until: deadline) {
          throw .databaseUnavailable(database: configuration.database, serverSaid: RESP.shown(message))
        }
      }
    } catch {
      close()
      throw error
    }
  }

  deinit { close() }

  /// Closes the socket; idempotent.
  func close() {
    guard descriptor >= 0 else { return }
    tls = nil
    _ = systemClose(descriptor)
    descriptor = -1
  }

  /// Whether the connection can no longer be used: closed here, or readable while idle (the
  /// server closed it, as a restarted Redis does, or sent something unasked). Checked before
  /// each command, so a restart costs no failed command.
  var isStale: Bool {
    // Bytes left over from the last reply mean the replies no longer match the commands.
    guard descriptor >= 0, !reader.hasUnconsumedBytes else { return true }
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    let readable = systemPoll(&poller, 1, 0) != 0
    guard let tls else { return readable }
    // Over TLS, what arrives may be a record that is not data (a session ticket).
    return readable && tls.isStale
  }

  /// Sends `command` and reads its reply by `deadline` (the command timeout from when it was
  /// asked for, its time in the pool's queue included). A reply of type error is returned, not
  /// thrown: the connection is still good.
  func send(_ command: [String], until deadline: Date) throws(RedisNonceStoreError) -> RESP.Reply {
    try roundTrip(command, name: command.first ?? "", until: deadline)
  }

  /// Sends `command` with the command timeout from now.
  func send(_ command: [String]) throws(RedisNonceStoreError) -> RESP.Reply {
    try send(command, until: Date().addingTimeInterval(configuration.commandTimeout))
  }

  private func roundTrip(_ command: [String], name: String, until deadline: Date) throws(RedisNonceStoreError) -> RESP.Reply {
    guard descriptor >= 0 else { throw .connectionClosed(host: configuration.host, port: configuration.port) }
    do {
      try write(RESP.encode(command), name: name, until: deadline)
      return try readReply(name: name, until: deadline)
    } catch {
      close()
      throw error
    }
  }

  private func write(_ bytes: [UInt8], name: String, until deadline: Date) throws(RedisNonceStoreError) {
    var offset = 0
    while offset < bytes.count {
      guard deadline.timeIntervalSinceNow > 0 else { throw timeout(name) }
      let outcome = bytes.withUnsafeBytes { raw in
        let start = raw.baseAddress! + offset, count = raw.count - offset
        if let tls { return tls.write(start, count) }
        let sent = systemSend(descriptor, start, count)
        if sent > 0 { return .moved(sent) }
        return sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) ? .wait(Int16(POLLOUT)) : .closed
      }
      switch outcome {
      case .moved(let count): offset += count
      case .wait(let events): try wait(for: events, name: name, until: deadline)
      case .closed: throw .connectionClosed(host: configuration.host, port: configuration.port)
      }
    }
  }

  private func readReply(name: String, until deadline: Date) throws(RedisNonceStoreError) -> RESP.Reply {
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      if let reply = try reader.next() { return reply }
      // Checked on every turn, not only while waiting: a server that keeps sending, a byte at
      // a time, must not keep the command past its deadline.
      guard deadline.timeIntervalSinceNow > 0 else { throw timeout(name) }
      let outcome = chunk.withUnsafeMutableBytes { raw -> TLSSession.Outcome in
        if let tls { return tls.read(raw.baseAddress!, raw.count) }
        let count = read(descriptor, raw.baseAddress, raw.count)
        if count > 0 { return .moved(count) }
        return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) ? .wait(Int16(POLLIN)) : .closed
      }
      switch outcome {
      case .moved(let count): reader.append(chunk[0..<count])
      case .wait(let events): try wait(for: events, name: name, until: deadline)
      case .closed: throw .connectionClosed(host: configuration.host, port: configuration.port)
      }
    }
  }

  /// Waits until the socket is ready for `events`, or throws once `deadline` has passed.
  private func wait(for events: Int16, name: String, until deadline: Date) throws(RedisNonceStoreError) {
    try Self.poll(descriptor, events, until: deadline, timeout: timeout(name))
  }

  /// The error of `name` not answered in time.
  private func timeout(_ name: String) -> RedisNonceStoreError {
    .timedOut(
      host: configuration.host, port: configuration.port, operation: name,
      seconds: ["AUTH", "SELECT", "the TLS handshake"].contains(name) ? configuration.connectTimeout : configuration.commandTimeout)
  }

  private static func poll(_ descriptor: Int32, _ events: Int16, until deadline: Date, timeout: RedisNonceStoreError) throws(RedisNonceStoreError) {
    while true {
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { throw timeout }
      var poller = pollfd(fd: descriptor, events: events, revents: 0)
      let ready = systemPoll(&poller, 1, Int32(min(remaining * 1000, 60_000).rounded(.up)))
      if ready > 0 || (ready < 0 && errno != EINTR) { return }
    }
  }

  /// A non-blocking socket connected to one of the host's addresses, tried in order.
  private static func connect(_ configuration: RedisConfiguration, until deadline: Date) throws(RedisNonceStoreError) -> Int32 {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    #if canImport(Glibc)
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
      hints.ai_socktype = SOCK_STREAM
    #endif
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(configuration.host, String(configuration.port), &hints, &list)
    guard status == 0, let first = list else {
      throw .cannotResolve(host: configuration.host, reason: String(cString: gai_strerror(status)))
    }
    defer { freeaddrinfo(list) }
    var reason = "no address"
    var entry: UnsafeMutablePointer<addrinfo>? = first
    while let address = entry {
      entry = address.pointee.ai_next
      let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
      guard descriptor >= 0 else {
        reason = String(cString: strerror(errno))
        continue
      }
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
      var one: Int32 = 1
      setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
      #if canImport(Darwin)
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
      #endif
      if systemConnect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return descriptor }
      guard errno == EINPROGRESS else {
        reason = String(cString: strerror(errno))
        _ = systemClose(descriptor)
        continue
      }
      do {
        try poll(
          descriptor, Int16(POLLOUT), until: deadline,
          timeout: .timedOut(host: configuration.host, port: configuration.port, operation: "connect", seconds: configuration.connectTimeout))
      } catch {
        _ = systemClose(descriptor)
        throw error
      }
      var failure: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length)
      if failure == 0 { return descriptor }
      reason = String(cString: strerror(failure))
      _ = systemClose(descriptor)
    }
    throw .cannotConnect(host: configuration.host, port: configuration.port, reason: reason)
  }
}

// The C functions whose names the class's own methods shadow.
private func systemClose(_ descriptor: Int32) -> Int32 {
  #if canImport(Glibc)
    Glibc.close(descriptor)
  #else
    Darwin.close(descriptor)
  #endif
}

private func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
  #if canImport(Glibc)
    Glibc.connect(descriptor, address, length)
  #else
    Darwin.connect(descriptor, address, length)
  #endif
}

private func systemPoll(_ fds: UnsafeMutablePointer<pollfd>, _ count: Int, _ timeout: Int32) -> Int32 {
  #if canImport(Glibc)
    Glibc.poll(fds, nfds_t(count), timeout)
  #else
    Darwin.poll(fds, nfds_t(count), timeout)
  #endif
}

/// `send` without SIGPIPE when the server has gone (Linux: `MSG_NOSIGNAL`; Darwin: `SO_NOSIGPIPE` on the socket).
private func systemSend(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
  #else
    Darwin.send(descriptor, bytes, count, 0)
  #endif
}
