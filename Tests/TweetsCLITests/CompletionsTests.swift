import Foundation
import TestSupport
import Testing

/// `tweets completions` and `oauth1 completions`: scripts generated from the commands'
/// declarations. Each shell loads its script and completes `tweets ti` to `timeline`: bash with
/// `COMP_WORDS`, zsh typed into in a pseudo-terminal, fish with `complete -C`. Where zsh or fish
/// is not installed, its scripts are only checked for the declarations they must carry.
@Suite("Shell completions", .tags(.processes), .tier(.processes))
struct CompletionsTests {
  func script(_ program: String, _ shell: String) async throws -> String {
    let result = try await ProcessRunner.run(PackagePaths.executable(program), ["completions", shell], timeout: TweetsRunner.hangTimeout)
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout
  }

  /// What bash offers for the words typed so far (the last one being completed).
  func bashCompletes(_ script: String, _ words: [String], program: String) async throws -> [String] {
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
    let result = try await ProcessRunner.run(URL(fileURLWithPath: "/bin/bash"), ["--norc", "-c", probe], timeout: 30)
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout.split(separator: "\n").map(String.init)
  }

  @Test func bashCompletesCommandsOptionsAndShells() async throws {
    let tweets = try await script("tweets", "bash")
    #expect(try await bashCompletes(tweets, ["tweets", "ti"], program: "tweets") == ["timeline"])
    #expect(try await bashCompletes(tweets, ["tweets", "tim"], program: "tweets") == ["timeline"])
    #expect(try await bashCompletes(tweets, ["tweets", "--sandbox", "timeline", "--li"], program: "tweets") == ["--limit"])
    // A command's own options only: post takes --api and --format, not --limit nor --output.
    let post = try await bashCompletes(tweets, ["tweets", "post", "--"], program: "tweets")
    #expect(post.contains("--api") && post.contains("--format") && !post.contains("--limit") && !post.contains("--output"), "\(post)")
    #expect(try await bashCompletes(tweets, ["tweets", "post", "--li"], program: "tweets").isEmpty)
    // A value-taking option's value is not taken for the subcommand.
    #expect(try await bashCompletes(tweets, ["tweets", "--profile", "work", "api", "--js"], program: "tweets").contains("--json-body"))
    #expect(try await bashCompletes(tweets, ["tweets", "--sa"], program: "tweets") == ["--sandbox"])
    #expect(try await bashCompletes(tweets, ["tweets", "completions", "z"], program: "tweets") == ["zsh"])
    let oauth1 = try await script("oauth1", "bash")
    #expect(try await bashCompletes(oauth1, ["oauth1", "sign", "--signature-m"], program: "oauth1") == ["--signature-method"])
    #expect(try await bashCompletes(oauth1, ["oauth1", "ve"], program: "oauth1") == ["verify"])
  }

  /// The shell's executable, where it is installed.
  func shell(_ name: String) -> URL? {
    ["/usr/bin", "/bin", "/usr/local/bin", "/opt/homebrew/bin"].map { URL(fileURLWithPath: $0 + "/" + name) }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  @Test(arguments: ["zsh", "fish"])
  func zshAndFishScriptsLoadAndComplete(shell name: String) async throws {
    for program in ["tweets", "oauth1"] {
      let text = try await script(program, name)
      let commands = program == "tweets" ? ["login", "timeline", "search", "api"] : ["sign", "verify"]
      for command in commands { #expect(text.contains(command), "\(program) \(name): \(command)") }
      #expect(text.contains(program == "tweets" ? "sandbox" : "consumer-key"))
    }
    // Each command's own options: post is offered --api and --thread, not --limit nor --output.
    let tweetsScript = try await script("tweets", name)
    let postOptions =
      name == "fish"
      ? tweetsScript.split(separator: "\n").filter { $0.contains("__fish_seen_subcommand_from post'") }.joined(separator: "\n")
      : String(tweetsScript.components(separatedBy: "    post)\n").dropFirst().first?.components(separatedBy: ";;").first ?? "")
    func offers(_ option: String) -> Bool { postOptions.contains(name == "fish" ? "-l \(option) " : "--\(option)[") }
    #expect(offers("api") && offers("format") && offers("thread") && !offers("limit") && !offers("output"), "\(name): \(postOptions)")
    // Loaded and asked by the shell itself where it is installed (CI's machine has both).
    guard let executable = shell(name) else { return }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let tweets = try await script("tweets", name)
    if name == "zsh" {
      // A real interactive zsh in a pseudo-terminal, with the script on its fpath, completes
      // `tweets ti<TAB>`.
      try tweets.write(to: folder.appendingPathComponent("_tweets"), atomically: true, encoding: .utf8)
      let probe = folder.appendingPathComponent("probe.zsh")
      try Self.zshProbe.write(to: probe, atomically: true, encoding: .utf8)
      let result = try await ProcessRunner.run(executable, ["-f", probe.path, folder.path], timeout: 30)
      #expect(result.status == 0 && result.stdout.contains("completed"), "\(result.stdout) \(result.stderr)")
    } else {
      let file = folder.appendingPathComponent("tweets.fish")
      try tweets.write(to: file, atomically: true, encoding: .utf8)
      #expect(try await ProcessRunner.run(executable, ["-n", file.path], timeout: 30).status == 0)
      for (line, expected) in [("tweets ti", "timeline\t"), ("tweets timeline --li", "--limit\t")] {
        let asked = try await ProcessRunner.run(executable, ["-c", "source '\(file.path)'; complete -C '\(line)'"], timeout: 30)
        #expect(asked.stdout.hasPrefix(expected), "\(line): \(asked.stdout) \(asked.stderr)")
      }
      let post = try await ProcessRunner.run(executable, ["-c", "source '\(file.path)'; complete -C 'tweets post --li'"], timeout: 30)
      #expect(!post.stdout.contains("--limit"), "\(post.stdout)")
    }
  }

  /// Types `tweets ti<TAB>` into an interactive zsh (zsh/zpty) whose fpath has the script, and
  /// prints `completed` when the line becomes `tweets timeline`.
  static let zshProbe = """
    zmodload zsh/zpty
    zpty -b z zsh -f -i
    zpty -w z "fpath=($1 \\$fpath); autoload -U compinit; compinit -u -D; PS1='> '"
    zpty -n -w z $'tweets ti\\t'
    local all="" chunk
    for i in {1..50}; do
      if zpty -r -t z chunk; then all+=$chunk; fi
      [[ $all == *"tweets timeline"* ]] && break
      sleep 0.1
    done
    zpty -d z
    [[ $all == *"tweets timeline"* ]] && print completed || { print -r -- "$all"; exit 1 }
    """

  @Test func anUnknownShellIsAUsageError() async throws {
    let result = try await ProcessRunner.run(PackagePaths.executable("tweets"), ["completions", "powershell"], timeout: TweetsRunner.hangTimeout)
    #expect(result.status == 2 && result.stderr.contains("bash, zsh or fish"), "\(result.stderr)")
  }
}
