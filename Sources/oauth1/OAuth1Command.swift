import CommandLineSupport
import Foundation

/// Dispatches `oauth1 <command>` and turns every failure into a message and an exit status:
/// 0 success, 1 a request that cannot be signed, 2 wrong usage.
enum OAuth1Command {
  static let version = "0.1.0"

  static let overview = """
    oauth1: OAuth 1.0a signing, stage by stage.

    Usage: oauth1 <command> [options]

    Commands:
      sign      Sign a request and print every intermediate value
      verify    Verify a received request as a provider would
      help      Show help for a command
      completions  Print a completion script: oauth1 completions bash|zsh|fish

    Run `oauth1 help sign` or `oauth1 help verify` for the options, or try `oauth1 sign --example twitter`.
    """

  static func run(_ arguments: [String]) async -> Int32 {
    guard let command = arguments.first else {
      print(overview)
      return 2
    }
    let rest = Array(arguments.dropFirst())
    switch command {
    case "sign":
      return await SignCommand.run(rest)
    case "verify":
      return await VerifyCommand.run(rest)
    case "help", "--help", "-h":
      switch rest.first {
      case "sign": print(SignCommand.spec.usage, terminator: "")
      case "verify": print(VerifyCommand.spec.usage, terminator: "")
      default: print(overview)
      }
      return 0
    case "completions":
      guard rest.count == 1, let shell = Completions.Shell(rawValue: rest[0]) else {
        Output.error("completions: name one shell: bash, zsh or fish")
        return 2
      }
      print(Completions.script(for: "oauth1", commands: [SignCommand.spec, VerifyCommand.spec], shell: shell), terminator: "")
      return 0
    case "--version":
      print("oauth1 \(version)")
      return 0
    default:
      Output.error("unknown command \"\(command)\"")
      Output.stderr(overview)
      return 2
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
