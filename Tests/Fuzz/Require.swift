import Foundation

// The fuzz build's `require` (Support.swift) stops the run; in `swift test` a failed property
// is collected here, and the test that ran the input records it as an issue naming the input.

/// Collects `message` when `condition` is false.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
  if !condition() { PropertyFailures.shared.add("fuzz property failed: \(message())") }
}

/// Failed properties not yet reported. The targets run one input at a time.
final class PropertyFailures: @unchecked Sendable {
  static let shared = PropertyFailures()
  private let lock = NSLock()
  private var messages: [String] = []

  func add(_ message: String) { lock.withLock { messages.append(message) } }

  /// The failures so far, leaving none.
  func drain() -> [String] {
    lock.withLock {
      defer { messages = [] }
      return messages
    }
  }
}
