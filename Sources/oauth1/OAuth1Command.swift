import CommandLineSupport
import Foundation

/// Dispatches `oauth1 <command>` and turns every failure into a message and an exit status:
/// 0 success, 1 a request that cannot be signed (or, for `verify`, fails a check) or output
/// that could not be written (a full disk), 2 wrong usage, 3 (`verify`) a nonce store that
/// cannot answer; a reader of standard output that went away (`| head`) ends it quietly by
/// SIGPIPE (141 in a shell).
enum OAuth1Command {
  static let version = "0.1.0"
  /// `--version`, which every command takes too.
  static let versionOption = Option.flag("version", help: "Print the version.")

  /// The commands, in the overview's order.
  static let commands: [any OAuth1Subcommand] = [SignCommand(), VerifyCommand(), RequestCommand(), LoginCommand(), ServeCommand(), LTICommand()]

  /// The dispatch shell `oauth1` shares with `tweets`: overview, help, version, completions,
  /// missing and unknown commands.
  static let shell = CommandShell(
    program: "oauth1", version: version,
    summary: "OAuth 1.0a from the command line: sign and explain, verify, log in, send signed requests, serve a test provider, LTI 1.1.",
    commands: commands.map(\.spec),
    epilogue: "Run `oauth1 help COMMAND` for its options, or try `oauth1 sign --example twitter`.")

  static func run(_ arguments: [String]) async -> Int32 {
    switch shell.dispatch(arguments) {
    case .finished(let answer):
      Output.stdout(answer.standardOutput)
      if !answer.standardError.isEmpty { Output.stderr(answer.standardError) }
      return Output.checked(answer.status)
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
        Output.stdout(spec.usage)
        return Output.checked(0)
      }
      if parsed[versionOption] {
        Output.stdout("oauth1 \(version)\n")
        return Output.checked(0)
      }
      return Output.checked(try await command.run(parsed, ()))
    } catch let error as UsageError {
      return Output.checked(Output.usage(error, spec))
    } catch {
      Output.error("\(error)")
      return Output.checked(1)
    }
  }
}

/// Writing to the standard streams, through ``CheckedOutput``: a write that fails is kept (and
/// reported once, by ``checked(_:)``), never a crash or a silent loss.
enum Output {
  /// Writes `text` as it is to standard output.
  static func stdout(_ text: String) {
    CheckedOutput.standardOutput.write(text)
  }

  /// `status`, unless standard output refused a write: then 1, with the reason on stderr, or,
  /// for a reader that went away (`| head -1`), 141 and nothing said: `main` then ends the
  /// process by SIGPIPE, as a Unix tool ends (``CheckedOutput/exit(_:)``).
  static func checked(_ status: Int32) -> Int32 {
    guard let failure = CheckedOutput.standardOutput.failure else { return status }
    if failure.isClosedPipe { return 128 + SIGPIPE }
    error("\(failure)")
    return 1
  }

  /// Writes `text` and, unless it ends with one, a newline to standard error; a failure there
  /// is dropped, there being nowhere left to report it.
  static func stderr(_ text: String) {
    CheckedOutput.standardError.write(text.hasSuffix("\n") ? text : text + "\n")
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
