import Foundation
import NetworkClient
import Testing

/// ``StreamBuffer``, the bounded body of a streamed response, on its own: order, the pause at its
/// limit and the resume at half, the hard limit, the end, and a reader that leaves.
@Suite("StreamBuffer")
struct StreamBufferTests {
  final class Calls: Sendable {
    let resumes = Locked(0)
    let cancels = Locked(0)
  }

  @Test("offer refuses at the limit and pauses; the reader's taking it down to half resumes; nothing is lost or reordered")
  func pauseAndResume() async throws {
    let calls = Calls()
    let buffer = StreamBuffer(limit: 1000, onResume: { calls.resumes.withLock { $0 += 1 } }, onCancel: { calls.cancels.withLock { $0 += 1 } })
    var offered = 0
    while buffer.offer(Data(repeating: UInt8(offered % 251), count: 100)) { offered += 1 }
    #expect(offered == 10 && buffer.isPaused && buffer.bufferedBytes == 1000)
    #expect(!buffer.offer(Data([1])), "still full: refused again")
    var iterator = buffer.stream.makeAsyncIterator()
    for expected in 0..<5 {
      #expect(try await iterator.next() == Data(repeating: UInt8(expected), count: 100))
      #expect(calls.resumes.withLock { $0 } == (expected == 4 ? 1 : 0), "resumed only once at half the limit")
    }
    #expect(!buffer.isPaused && buffer.bufferedBytes == 500)
    buffer.finish()
    for expected in 5..<10 { #expect(try await iterator.next() == Data(repeating: UInt8(expected), count: 100)) }
    #expect(try await iterator.next() == nil)
    #expect(calls.cancels.withLock { $0 } == 0, "a body read to its end hangs nothing up")
  }

  @Test("push past the hard limit ends the body with ReaderTooSlow, drops what is held, and hangs up once")
  func hardLimit() async throws {
    let calls = Calls()
    let buffer = StreamBuffer(limit: 10, onResume: {}, onCancel: { calls.cancels.withLock { $0 += 1 } })
    #expect(buffer.hardLimit == 640)
    for _ in 0..<64 { buffer.push(Data(repeating: 7, count: 10)) }
    #expect(buffer.bufferedBytes == 640 && buffer.isPaused)
    #expect(!buffer.push(Data([1])))
    #expect(buffer.bufferedBytes == 0 && calls.cancels.withLock { $0 } == 1)
    buffer.push(Data([1]))
    #expect(buffer.bufferedBytes == 0, "an ended body takes nothing more")
    await #expect(throws: StreamBuffer.ReaderTooSlow.self) {
      for try await _ in buffer.stream {}
    }
    #expect(calls.cancels.withLock { $0 } == 1)
  }

  @Test("an error ends the body after what is held; a waiting reader gets the next chunk at once")
  func errorsAndWaiting() async throws {
    let buffer = StreamBuffer(onResume: {}, onCancel: {})
    let reader = Task { () -> [Data] in
      var chunks: [Data] = []
      do { for try await chunk in buffer.stream { chunks.append(chunk) } } catch { chunks.append(Data("error".utf8)) }
      return chunks
    }
    try await Task.sleep(for: .milliseconds(50))
    buffer.push(Data("a".utf8))
    buffer.push(Data("b".utf8))
    buffer.finish(throwing: URLError(.networkConnectionLost))
    buffer.push(Data("late".utf8))
    #expect(await reader.value == [Data("a".utf8), Data("b".utf8), Data("error".utf8)])
  }

  @Test("a cancelled reader, or one that drops the stream unfinished, hangs up once and frees what is held")
  func readerLeaves() async throws {
    let calls = Calls()
    let buffer = StreamBuffer(onResume: {}, onCancel: { calls.cancels.withLock { $0 += 1 } })
    let reader = Task { for try await _ in buffer.stream {} }
    try await Task.sleep(for: .milliseconds(50))
    reader.cancel()
    _ = await reader.result
    #expect(calls.cancels.withLock { $0 } == 1)
    buffer.push(Data(repeating: 1, count: 100))
    #expect(buffer.bufferedBytes == 0, "nothing is kept for a reader that left")

    let dropped = Calls()
    let other = StreamBuffer(onResume: {}, onCancel: { dropped.cancels.withLock { $0 += 1 } })
    do {
      var iterator = other.stream.makeAsyncIterator()
      other.push(Data("x".utf8))
      _ = try await iterator.next()
    }
    #expect(dropped.cancels.withLock { $0 } == 1)
  }
}
