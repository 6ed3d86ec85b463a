import Foundation
import TestSupport
import Testing

/// `tweets completions` and `oauth1 completions`: scripts generated from the commands'
/// declarations. The bash ones are loaded into a real bash and asked to complete; where zsh and
/// fish are installed, `zsh -n` and `fish -n` check their scripts and fish is asked to complete
/// too; without them, the scripts are checked for the declarations they must carry.
@Suite("Shell completions", .tags(.processes), .tier(.processes))
struct CompletionsTests {
  func script(_ program: String, _ shell: String) throws -> String {
    let result = try ProcessRunner.run(PackagePaths.executable(program), ["completions", shell], timeout: 60)
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout
  }

  /// What bash offers for the words typed so far (the last one being completed).
  func bashCompletes(_ script: String, _ words: [String], program: String) throws -> [String] {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(UUID().uuidString).bash")
    try script.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let quoted = words.map { "'\($0)'" }.joined(separator: " ")
    let probe = """
      source '\(file.path)'
      COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
      _\(program)_completions
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let result = try ProcessRunner.run(URL(fileURLWithPath: "/bin/bash"), ["--norc", "-c", probe], timeout: 30)
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout.split(separator: "\n").map(String.init)
  }

  @Test func bashCompletesCommandsOptionsAndShells() throws {
    let tweets = try script("tweets", "bash")
    #expect(try bashCompletes(tweets, ["tweets", "ti"], program: "tweets") == ["timeline"])
    #expect(try bashCompletes(tweets, ["tweets", "--sandbox", "timeline", "--li"], program: "tweets") == ["--limit"])
    // A value-taking option's value is not taken for the subcommand.
    #expect(try bashCompletes(tweets, ["tweets", "--profile", "work", "api", "--js"], program: "tweets").contains("--json-body"))
    #expect(try bashCompletes(tweets, ["tweets", "--sa"], program: "tweets") == ["--sandbox"])
    #expect(try bashCompletes(tweets, ["tweets", "completions", "z"], program: "tweets") == ["zsh"])
    let oauth1 = try script("oauth1", "bash")
    #expect(try bashCompletes(oauth1, ["oauth1", "sign", "--signature-m"], program: "oauth1") == ["--signature-method"])
    #expect(try bashCompletes(oauth1, ["oauth1", "ve"], program: "oauth1") == ["verify"])
  }

  @Test(arguments: ["zsh", "fish"])
  func zshAndFishScriptsCarryEveryCommand(shell: String) throws {
    for program in ["tweets", "oauth1"] {
      let text = try script(program, shell)
      let commands = program == "tweets" ? ["login", "timeline", "search", "api"] : ["sign", "verify"]
      for command in commands { #expect(text.contains(command), "\(program) \(shell): \(command)") }
      #expect(text.contains(program == "tweets" ? "sandbox" : "consumer-key"))
      // Checked by the shell itself where it is installed.
      for directory in ["/usr/bin", "/bin", "/usr/local/bin", "/opt/homebrew/bin"] {
        let path = directory + "/" + shell
        guard FileManager.default.isExecutableFile(atPath: path) else { continue }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(UUID().uuidString).\(shell)")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ProcessRunner.run(URL(fileURLWithPath: path), ["-n", file.path], timeout: 30)
        #expect(result.status == 0, "\(shell) -n: \(result.stderr)")
        if shell == "fish" {
          // fish can also be asked what it would complete.
          let line = program == "tweets" ? "tweets timeline --li" : "oauth1 ve"
          let asked = try ProcessRunner.run(URL(fileURLWithPath: path), ["-c", "source '\(file.path)'; complete -C '\(line)'"], timeout: 30)
          #expect(asked.stdout.hasPrefix(program == "tweets" ? "--limit\t" : "verify\t"), "\(asked.stdout) \(asked.stderr)")
        }
        break
      }
    }
  }

  @Test func anUnknownShellIsAUsageError() throws {
    let result = try ProcessRunner.run(PackagePaths.executable("tweets"), ["completions", "powershell"], timeout: 60)
    #expect(result.status == 2 && result.stderr.contains("bash, zsh or fish"), "\(result.stderr)")
  }
}
