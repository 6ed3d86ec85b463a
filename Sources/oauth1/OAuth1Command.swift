import CommandLineSupport
import Foundation

/// Dispatches `oauth1 <command>` and turns every failure into a message and an exit status:
/// 0 success, 1 a request that cannot be signed (or, for `verify`, fails a check), 2 wrong
/// usage, 3 (`verify`) a nonce store that cannot answer.
enum OAuth1Command {
  static let version = "0.1.0"
  /// `--version`, which every command takes too.
  static let versionOption = Option.flag("version", help: "Print the version.")

  /// The commands, in the overview's order.
  static let commands: [any OAuth1Subcommand] = [SignCommand(), VerifyCommand(), RequestCommand(), LoginCommand()]

  /// The dispatch shell `oauth1` shares with `tweets`: overview, help, version, completions,
  /// missing and unknown commands.
  static let shell = CommandShell(
    program: "oauth1", version: version, summary: "OAuth 1.0a from the command line: sign and explain, verify, log in, send signed requests.",
    commands: commands.map(\.spec),
    epilogue: "Run `oauth1 help COMMAND` for its options, or try `oauth1 sign --example twitter`.")

  static func run(_ arguments: [String]) async -> Int32 {
    switch shell.dispatch(arguments) {
    case .finished(let answer):
      print(answer.standardOutput, terminator: "")
      if !answer.standardError.isEmpty { Output.stderr(answer.standardError) }
      return answer.status
    case .run(let name, let rest):
      guard let command = commands.first(where: { $0.spec.subcommand == name }) else { return 2 }
      return await run(command, rest)
    }
  }

  /// Parses `arguments` for `command`, answers `--help` and `--version`, runs it, and turns a
  /// failure into a message and an exit status (2 for wrong usage, 1 for anything else).
  static func run(_ command: any OAuth1Subcommand, _ arguments: [String]) async -> Int32 {
    let spec = command.spec
    do {
      // An option of another subcommand is named as such: "oauth1 sign does not take --max-time: request does".
      let parsed = try shell.parse(arguments, for: spec)
      if parsed[CommandSpec.help] {
        print(spec.usage, terminator: "")
        return 0
      }
      if parsed[versionOption] {
        print("oauth1 \(version)")
        return 0
      }
      return try await command.run(parsed, ())
    } catch let error as UsageError {
      return Output.usage(error, spec)
    } catch {
      Output.error("\(error)")
      return 1
    }
  }
}

/// Writing to the standard streams.
enum Output {
  static func stderr(_ text: String) {
    FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
  }

  static func error(_ message: String) {
    stderr("oauth1: error: \(message)")
  }

  /// Wrong usage: the error, then the command's usage, on stderr; exit status 2.
  static func usage(_ error: UsageError, _ spec: CommandSpec) -> Int32 {
    Output.error(error.message)
    stderr("Usage: \(spec.usageLine)\nRun `\(spec.name) --help` for the options.")
    return 2
  }
}
