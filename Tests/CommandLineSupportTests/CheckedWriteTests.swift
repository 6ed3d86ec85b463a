import CommandLineSupport
import Foundation
import Testing

/// The tools' one way of writing bytes: every byte or a failure that names the output, never a
/// trap; an output keeps its first failure and writes nothing after it.
@Suite("Checked writes")
struct CheckedWriteTests {
  @Test func aFullDeviceIsAFailureThatNamesTheOutput() throws {
    let descriptor = open("/dev/full", O_WRONLY | O_CLOEXEC)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    #expect(throws: WriteFailure(target: "the table", code: ENOSPC)) {
      try CheckedWrite.all(Data("row\n".utf8), to: descriptor, naming: "the table")
    }
    #expect(WriteFailure(target: "standard output", code: ENOSPC).description == "cannot write to standard output: No space left on device")
    #expect(WriteFailure(target: "standard output", code: EPIPE).isClosedPipe)
    #expect(!WriteFailure(target: "standard output", code: EIO).isClosedPipe)
  }

  @Test func anOutputKeepsItsFirstFailureAndWritesNothingAfterIt() throws {
    // A pipe whose writing end does not block: a write larger than the pipe holds is written
    // in part, then refused (EAGAIN); once the pipe is drained, a write would go through.
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    defer { for end in ends { close(end) } }
    try #require(fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK) == 0)
    let output = CheckedOutput(descriptor: ends[1], naming: "the pipe")
    #expect(output.write("one\n") && output.failure == nil)
    #expect(!output.write(Data(repeating: 0x61, count: 1 << 24)))
    #expect(output.failure == WriteFailure(target: "the pipe", code: EAGAIN))
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var drained = 0
    try #require(fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK) == 0)
    while case let count = read(ends[0], &buffer, buffer.count), count > 0 { drained += count }
    #expect(drained > 4 && drained < 4 + (1 << 24), "the large write was written in part")
    #expect(!output.write("two\n"), "nothing is written after the first failure")
    #expect(read(ends[0], &buffer, buffer.count) == -1 && errno == EAGAIN, "the pipe stays empty")
    #expect(throws: WriteFailure(target: "the pipe", code: EAGAIN)) { try output.check() }
  }
}
