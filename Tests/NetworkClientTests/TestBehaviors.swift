import Foundation
import NetworkClient
import NetworkClientTesting

/// A thread-safe list of what happened, in order.
final class EventLog: @unchecked Sendable {
  private let lock = NSLock()
  private var _events: [String] = []
  func add(_ event: String) {
    lock.lock()
    _events.append(event)
    lock.unlock()
  }
  var events: [String] {
    lock.lock()
    defer { lock.unlock() }
    return _events
  }
}

/// Records every hook it sees, so tests can check which hooks ran and in what order.
struct RecordingBehavior: RequestBehavior {
  let name: String
  let log: EventLog
  var isSigner = false
  var headers: HTTPHeaders = [:]
  var failAfterSuccess = false

  var additionalHeaders: HTTPHeaders { headers }

  func modify(_ request: HTTPRequest) async throws -> HTTPRequest {
    log.add("\(name).modify")
    var request = request
    request.headers.add(name: "X-Modified-By", value: name)
    return request
  }

  func beforeSend(_ request: HTTPRequest) async { log.add("\(name).beforeSend") }

  func afterSuccess(_ response: HTTPResponse) async throws {
    log.add("\(name).afterSuccess")
    if failAfterSuccess { throw Refusal() }
  }

  func afterFailure(_ error: NetworkError, request: HTTPRequest) async { log.add("\(name).afterFailure") }

  func around(_ request: HTTPRequest, send: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
    log.add("\(name).around.in")
    defer { log.add("\(name).around.out") }
    return try await send(request)
  }

  struct Refusal: Error, CustomStringConvertible { var description: String { "refused" } }
}

/// A signer stand-in: stamps a counter so each attempt's signature is visibly fresh.
final class CountingSigner: RequestBehavior, @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  var isSigner: Bool { true }
  var signatures: Int {
    lock.lock()
    defer { lock.unlock() }
    return count
  }

  func modify(_ request: HTTPRequest) async throws -> HTTPRequest {
    let value = lock.withLock {
      count += 1
      return count
    }
    var request = request
    request.headers["Authorization"] = "Test signature=\(value) headers=\(request.headers.map(\.name).joined(separator: ","))"
    return request
  }
}

let api = URL(string: "https://api.example.com/2")!

func client(_ transport: any HTTPTransport, behavior: any RequestBehavior = EmptyRequestBehavior()) -> NetworkClient {
  NetworkClient(baseURL: api, behavior: behavior, transport: transport)
}

/// A behavior whose `modify` is a closure.
struct ClosureBehavior: RequestBehavior {
  let change: @Sendable (HTTPRequest) -> HTTPRequest
  init(_ change: @escaping @Sendable (HTTPRequest) -> HTTPRequest) { self.change = change }
  func modify(_ request: HTTPRequest) async throws -> HTTPRequest { change(request) }
}
