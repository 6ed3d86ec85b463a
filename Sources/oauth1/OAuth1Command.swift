import CommandLineSupport
import Foundation

/// Dispatches `oauth1 <command>` and turns every failure into a message and an exit status:
/// 0 success, 1 a request that cannot be signed (or, for `verify`, fails a check), 2 wrong
/// usage, 3 (`verify`) a nonce store that cannot answer.
enum OAuth1Command {
  static let version = "0.1.0"

  /// The dispatch shell `oauth1` shares with `tweets`: overview, help, version, completions,
  /// missing and unknown commands.
  static let shell = CommandShell(
    program: "oauth1", version: version, summary: "OAuth 1.0a from the command line: sign and explain, verify, log in, send signed requests.",
    commands: [SignCommand.spec, VerifyCommand.spec, RequestCommand.spec, LoginCommand.spec],
    epilogue: "Run `oauth1 help COMMAND` for its options, or try `oauth1 sign --example twitter`.")

  static func run(_ arguments: [String]) async -> Int32 {
    switch shell.dispatch(arguments) {
    case .finished(let answer):
      print(answer.standardOutput, terminator: "")
      if !answer.standardError.isEmpty { Output.stderr(answer.standardError) }
      return answer.status
    case .run("sign", let rest):
      return await SignCommand.run(rest)
    case .run("request", let rest):
      return await RequestCommand.run(rest)
    case .run("login", let rest):
      return await LoginCommand.run(rest)
    case .run(_, let rest):
      return await VerifyCommand.run(rest)
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
