import Foundation

/// `--callgrind`: instructions per operation, which (unlike time) a busy or noisy machine does
/// not change. Each workload runs under `valgrind --tool=callgrind` with N and then 2N
/// iterations in this same binary, and (Ir(2N) − Ir(N)) / N cancels start-up and one-time costs.
enum InstructionCounts {
  static let workloads = [
    "baseline: OpenSSL HMAC() one-shot", "sign/twitter-doc: reused signer", "sign/twitter-doc: cold",
    "sign/twitter-doc: OAuthSignatureGenerator", "verify/twitter-doc (with a nonce store)",
  ]

  static func run() {
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    // valgrind 3.19 cannot read the DWARF the Swift compiler writes; a copy without it works.
    let stripped = FileManager.default.temporaryDirectory.appendingPathComponent("oauth1-bench-callgrind-\(getpid())")
    guard shell(["strip", "--strip-debug", "-o", stripped.path, executable.path]) != nil else {
      print("oauth1-bench: --callgrind needs valgrind and strip (apt-get install valgrind binutils)")
      return
    }
    defer { try? FileManager.default.removeItem(at: stripped) }
    print("instructions per operation (valgrind --tool=callgrind, (Ir(2N) - Ir(N)) / N, N = 200):")
    var results: [String: Double] = [:]
    for name in workloads {
      guard let one = instructions(stripped, name, iterations: 200), let two = instructions(stripped, name, iterations: 400) else {
        print("  \(name): valgrind failed")
        continue
      }
      let perOperation = Double(two - one) / 200
      results[name] = perOperation
      let ratio = results[workloads[0]].map { String(format: "  %.2fx OpenSSL HMAC()", perOperation / $0) } ?? ""
      print(String(format: "  %@ %9.0f Ir/op%@", name.padding(toLength: 44, withPad: " ", startingAt: 0), perOperation, ratio))
    }
  }

  private static func instructions(_ binary: URL, _ name: String, iterations: Int) -> Int? {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("oauth1-bench-\(getpid()).callgrind")
    defer { try? FileManager.default.removeItem(at: output) }
    guard
      let log = shell(
        [
          "env", "BENCH_ONLY=\(name)", "BENCH_ITERS=\(iterations)", "valgrind", "--tool=callgrind", "--callgrind-out-file=\(output.path)",
          binary.path,
        ],
        captureStandardError: true)
    else { return nil }
    guard let line = log.split(separator: "\n").first(where: { $0.contains("Collected :") }),
      let number = line.split(separator: ":").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) })
    else { return nil }
    return number
  }

  private static func shell(_ arguments: [String], captureStandardError: Bool = false) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let pipe = Pipe()
    if captureStandardError { process.standardError = pipe } else { process.standardOutput = pipe }
    if captureStandardError { process.standardOutput = FileHandle.nullDevice }
    do { try process.run() } catch { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
  }
}
