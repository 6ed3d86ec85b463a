import Foundation
import Locking
import Testing

/// `Locked`: mutual exclusion, and waiting for a state another thread makes. The waiting runs on
/// threads of the tests' own (`Thread`), never on the cooperative pool; each wait is bounded, so
/// that a bug fails the test rather than hangs it.
@Suite("Locked")
struct LockedTests {
  /// Far more than any of these waits needs: reached only when the code under test is wrong.
  static let patience: TimeInterval = 10

  /// Runs `body` on `count` threads of their own and returns once all of them are done.
  private func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let done = Locked(0)
    for index in 0..<count {
      Thread {
        body(index)
        done.withLock { $0 += 1 }
      }.start()
    }
    let allDone: (Int) -> Bool = { $0 == count }
    let finished = done.withLock(waitingUntil: allDone, deadline: Date().addingTimeInterval(Self.patience)) { _ in true }
    #expect(finished == true, "the threads did not finish in \(Self.patience) s")
  }

  @Test func incrementsFromManyThreadsAreNotLost() {
    let count = Locked(0)
    onThreads(4) { _ in
      for _ in 0..<10_000 { count.withLock { $0 += 1 } }
    }
    #expect(count.withLock { $0 } == 40_000)
  }

  @Test func aWaiterRunsOnceAnotherThreadMakesItsState() {
    let queue = Locked([Int]())
    let taken = Locked([Int]())
    // Two consumers wait for work; one producer adds six items, one at a time.
    onThreads(3) { index in
      if index == 2 {
        for item in 1...6 { queue.withLock { $0.append(item) } }
        return
      }
      for _ in 0..<3 {
        let hasWork: ([Int]) -> Bool = { !$0.isEmpty }
        let item = queue.withLock(waitingUntil: hasWork) { $0.removeFirst() }
        taken.withLock { $0.append(item) }
      }
    }
    #expect(taken.withLock { $0.sorted() } == [1, 2, 3, 4, 5, 6])
    #expect(queue.withLock { $0.isEmpty })
  }

  @Test func aChangeMadeByAWaiterWakesTheOthers() {
    // A relay: waiter n waits for the value n, then sets n + 1. Only waiters change the value
    // after the first step, so each must wake the next.
    let step = Locked(0)
    onThreads(4) { index in
      if index == 0 {
        step.withLock { $0 = 1 }
        return
      }
      let isMyTurn: (Int) -> Bool = { $0 == index }
      step.withLock(waitingUntil: isMyTurn) { $0 += 1 }
    }
    #expect(step.withLock { $0 } == 4)
  }

  @Test func aDeadlineGivesUpWithoutRunningTheBody() {
    let value = Locked(false)
    let ran = Locked(false)
    let started = Date()
    let result = value.withLock(waitingUntil: \.self, deadline: started.addingTimeInterval(0.2)) { _ in
      ran.withLock { $0 = true }
      return 1
    }
    #expect(result == nil)
    #expect(!ran.withLock { $0 })
    #expect(Date().timeIntervalSince(started) >= 0.2)
  }

  @Test func aDeadlineDoesNotDelayAStateAlreadyThere() {
    let value = Locked(7)
    let isSeven: (Int) -> Bool = { $0 == 7 }
    let result = value.withLock(waitingUntil: isSeven, deadline: Date()) { $0 * 2 }
    #expect(result == 14)
  }
}
