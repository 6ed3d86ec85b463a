import CommandLineSupport
import Foundation
import NetworkClient
import OAuthNetworking
import XAPI

/// The `tweets` command line: finds the command, parses its options, runs it, and turns every
/// failure into a message on stderr (with no secret in it) and an exit status (``ExitCode``).
///
/// ```swift
/// let status = await TweetsCLI.run(["--sandbox", "timeline"], environment: env, terminal: .standard(environment: env))
/// ```
public enum TweetsCLI {
  public static let version = "0.1.0"

  static let commands: [TweetsCommand] = [
    LoginCommand(), LogoutCommand(), WhoamiCommand(), TimelineCommand(), ShowCommand(), SearchCommand(), PostCommand(),
    ApiCommand(),
  ]

  public static func run(_ arguments: [String], environment: [String: String], terminal: Terminal) async -> Int32 {
    let (name, rest) = split(arguments)
    guard let name else {
      if arguments.contains("--version") {
        terminal.out("tweets \(version)")
        return ExitCode.success.rawValue
      }
      if arguments.contains("--help") || arguments.contains("-h") {
        terminal.writeOut(overview)
        return ExitCode.success.rawValue
      }
      terminal.err("tweets: error: no command given")
      terminal.writeError(overview)
      return ExitCode.usage.rawValue
    }
    if name == "completions" {
      return completions(rest, terminal).rawValue
    }
    if name == "help" {
      let topic = rest.first { !$0.hasPrefix("-") }
      guard let topic else {
        terminal.writeOut(overview)
        return ExitCode.success.rawValue
      }
      guard let command = commands.first(where: { $0.name == topic }) else {
        terminal.err("tweets: error: unknown command \"\(topic)\"")
        return ExitCode.usage.rawValue
      }
      terminal.writeOut(help(command))
      return ExitCode.success.rawValue
    }
    guard let command = commands.first(where: { $0.name == name }) else {
      terminal.err("tweets: error: unknown command \"\(name)\"" + suggestion(for: name))
      terminal.err("Run `tweets help` for the commands.")
      return ExitCode.usage.rawValue
    }

    let spec = command.spec
    let parsed: ParsedArguments
    let options: GlobalOptions
    do {
      parsed = try spec.parse(rest)
      if parsed[CommandSpec.help] {
        terminal.writeOut(help(command))
        return ExitCode.success.rawValue
      }
      options = try GlobalOptions(parsed, environment: environment)
    } catch let error as UsageError {
      terminal.err("tweets \(command.name): error: \(error.message)")
      terminal.err("Usage: \(spec.usageLine)\nRun `tweets help \(command.name)` for the options.")
      return ExitCode.usage.rawValue
    } catch {
      terminal.err("tweets: error: \(error)")
      return ExitCode.failure.rawValue
    }

    let session = Session(options: options, terminal: terminal, environment: environment)
    do {
      return try await command.run(parsed, session).rawValue
    } catch {
      let (message, code) = describe(error)
      terminal.err("tweets: error: \(message)")
      return code.rawValue
    }
  }

  /// The message and exit status for any failure.
  static func describe(_ error: any Error) -> (String, ExitCode) {
    switch error {
    case let error as UsageError: return (error.message, .usage)
    case let error as TweetsFailure: return (error.message, error.exitCode)
    case let error as XError:
      var message = error.description
      switch error {
      case .couldNotAuthenticate, .unauthorized: message += " Run with --verbose to see the signature base string."
      default: break
      }
      if ExitCode.for(error) == .serverError { message += (message.hasSuffix(".") ? "" : ".") + " Try again later." }
      return (message, ExitCode.for(error))
    case let error as OAuthFlowError: return (error.description, ExitCode.for(error))
    case let error as NetworkError: return (error.description, .failure)
    default: return (Redaction.text("\(error)"), .failure)
    }
  }

  /// The command name (the first argument that is neither an option nor an option's value)
  /// and the other arguments.
  static func split(_ arguments: [String]) -> (String?, [String]) {
    let valueOptions = Set(GlobalOptions.specs.map(\.spec).filter { $0.kind != .flag }.map { "--" + $0.name })
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      if argument == "--" { return (nil, arguments) }
      if argument.hasPrefix("-") {
        index += valueOptions.contains(argument) ? 2 : 1
        continue
      }
      var rest = arguments
      rest.remove(at: index)
      return (argument, rest)
    }
    return (nil, arguments)
  }

  static func suggestion(for name: String) -> String {
    let near = commands.map(\.name).filter { $0.hasPrefix(String(name.prefix(2))) }
    return near.isEmpty ? "" : " (did you mean \(near.joined(separator: " or "))?)"
  }

  static var overview: String {
    var lines = [
      "tweets: read and post on X (Twitter) from the command line.", "",
      "Usage: tweets <command> [options]", "", "Commands:",
    ]
    for command in commands {
      lines.append("  " + command.name.padding(toLength: 10, withPad: " ", startingAt: 0) + command.spec.summary)
    }
    lines.append("  help      Show help for a command: tweets help timeline")
    lines.append("  completions  Print a completion script: tweets completions bash|zsh|fish")
    lines += [
      "", "Try it offline, no account needed:  tweets --sandbox timeline",
      "Log in for real:                    tweets login --consumer-key KEY --consumer-secret SECRET",
      "", ExitCode.documentation,
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  /// `tweets completions SHELL`: the completion script, from the commands' declarations.
  static func completions(_ arguments: [String], _ terminal: Terminal) -> ExitCode {
    guard arguments.count == 1, let shell = Completions.Shell(rawValue: arguments[0]) else {
      terminal.err("tweets completions: error: name one shell: bash, zsh or fish")
      terminal.err("Usage: tweets completions bash|zsh|fish")
      return .usage
    }
    terminal.writeOut(Completions.script(for: "tweets", commands: commands.map(\.spec), shell: shell))
    return .success
  }

  static func help(_ command: TweetsCommand) -> String {
    command.spec.usage + "\n" + ExitCode.documentation + "\n"
  }
}

/// One `tweets` command.
protocol TweetsCommand: Sendable {
  var name: String { get }
  var spec: CommandSpec { get }
  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode
}

extension TweetsCommand {
  /// The command's own options followed by the global ones.
  func makeSpec(summary: String, options: [any OptionDeclaration] = [], positionals: [PositionalSpec] = [], discussion: String = "") -> CommandSpec {
    CommandSpec(name: "tweets \(name)", summary: summary, options: options + GlobalOptions.specs, positionals: positionals, discussion: discussion)
  }
}
