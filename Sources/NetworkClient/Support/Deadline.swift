import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A bound on the whole of one exchange, which a transport's timeout (seconds of silence) is
/// not: a server that trickles one byte every half second is never silent for long, and without
/// a deadline it holds the request for as long as it likes.
enum Deadline {
  /// The `URLError` user-info key that holds the deadline's seconds, so that the error can say so.
  static let userInfoKey = "NetworkClient.totalDeadline"

  /// Runs `operation`, and cancels it after `seconds`: it then throws a `URLError(.timedOut)`
  /// saying so (which ``TransportFailure`` sorts as `.timedOut`).
  static func within<Value: Sendable>(
    _ seconds: TimeInterval, _ operation: @escaping @Sendable () async throws -> Value
  ) async throws -> Value {
    guard seconds.isFinite, seconds > 0 else { return try await operation() }
    return try await withThrowingTaskGroup(of: Value?.self) { group in
      group.addTask { try await operation() }
      group.addTask {
        try await Task.sleep(for: .seconds(seconds))
        return nil
      }
      defer { group.cancelAll() }
      // The first to finish decides: the answer, its failure, or the deadline (nil).
      guard let first = try await group.next(), let value = first else {
        throw URLError(
          .timedOut,
          userInfo: [
            NSLocalizedDescriptionKey: "the whole answer took longer than \(Self.words(seconds)) (the request's total deadline)",
            userInfoKey: seconds,
          ])
      }
      return value
    }
  }

  static func words(_ seconds: TimeInterval) -> String {
    seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
  }
}
