import CommandLineSupport
import Foundation
import NetworkClient
import OAuth2
import OAuthNetworking
import XAPI
import XArchive

/// The `tweets` command line: finds the command, parses its options, runs it, and turns every
/// failure into a message on stderr (with no secret in it) and an exit status (``ExitCode``).
///
/// ```swift
/// let status = await TweetsCLI.run(["--sandbox", "timeline"], environment: env, terminal: .standard(environment: env), sandbox: XSandbox.self)
/// ```
package enum TweetsCLI {
  /// What `tweets --version` prints.
  package static let version = "0.1.0"

  static let commands: [any TweetsCommand] = [
    LoginCommand(), LogoutCommand(), WhoamiCommand(), TimelineCommand(), ShowCommand(), HydrateCommand(), SearchCommand(), UserTweetsCommand.mentions,
    UserTweetsCommand.liked, BookmarksCommand(), BookmarkCommand(), IDTweetsCommand.quotes, ConversationCommand(), IDTweetsCommand.list,
    PostUsersCommand(name: "likers"), PostUsersCommand(name: "reposters"), IDTweetsCommand.reposts, RepostsOfMeCommand(), ListsCommand(), DMCommand(),
    FollowsCommand(name: "followers"),
    FollowsCommand(name: "following"),
    UsersCommand(), ModerationCommand(name: "blocks"), ModerationCommand(name: "mutes"), CountsCommand(), StreamCommand(), PostCommand(),
    DeleteCommand(), UsageCommand(), BudgetCommand(), DehydrateCommand(),
    ExportCommand(),
    ComplianceCommand(),
    ApiCommand(), MigrateCommand(), MediaCommand(),
    SandboxCommand(), WebhookCommand(), ActivityCommand(),
  ]

  /// The dispatch shell `tweets` shares with `oauth1`: overview, help, version, completions,
  /// missing and unknown commands.
  static let shell = CommandShell(
    program: "tweets", version: version, summary: "read and post on X (Twitter) from the command line.", commands: commands.map(\.spec),
    epilogue: """
      Try it offline, no account needed:  tweets --sandbox timeline
      Log in for real:                    tweets login --consumer-key KEY --consumer-secret SECRET

      \(ExitCode.documentation)
      """,
    commandEpilogue: ExitCode.documentation, leadingOptions: GlobalOptions.specs)

  /// Runs one command line (without the program's name) and returns the exit status
  /// (``ExitCode``); everything is written to `terminal`, and `environment` stands for the
  /// process's environment variables; `sandbox` is the offline X API of `--sandbox` and `tweets
  /// sandbox serve`. Standard output refusing a write, anywhere (a result, the help), decides
  /// the status (``outputFailed(_:_:)``).
  package static func run(_ arguments: [String], environment: [String: String], terminal: Terminal, sandbox: any TweetsSandbox.Type) async -> Int32 {
    let status = await runCommand(arguments, environment: environment, terminal: terminal, sandbox: sandbox)
    return terminal.outputFailure().map { outputFailed($0, terminal) } ?? status
  }

  private static func runCommand(
    _ arguments: [String], environment: [String: String], terminal: Terminal, sandbox: any TweetsSandbox.Type
  ) async -> Int32 {
    let name: String, rest: [String]
    switch shell.dispatch(arguments) {
    case .finished(let answer):
      if !answer.standardOutput.isEmpty { terminal.writeOut(answer.standardOutput) }
      if !answer.standardError.isEmpty { terminal.writeError(answer.standardError) }
      return answer.status
    case .run(let command, let arguments):
      (name, rest) = (command, arguments)
    }
    guard let command = commands.first(where: { $0.name == name }) else { return ExitCode.usage.rawValue }

    let spec = command.spec
    let parsed: ParsedArguments
    let options: GlobalOptions
    do {
      parsed = try shell.parse(rest, for: spec)
      if parsed[CommandSpec.help] {
        terminal.writeOut(shell.help(command.spec))
        return ExitCode.success.rawValue
      }
      var resolved = try GlobalOptions(parsed, environment: environment, shared: command.shared)
      resolved.commandLine = [name] + spec.recordedArguments(rest)
      options = resolved
    } catch let error as UsageError {
      terminal.err("tweets: error: \(error.message)")
      terminal.err("Usage: \(spec.usageLine)\nRun `tweets help \(command.name)` for the options.")
      return ExitCode.usage.rawValue
    } catch {
      terminal.err("tweets: error: \(error)")
      return ExitCode.failure.rawValue
    }

    let session = Session(options: options, terminal: terminal, environment: environment, sandboxType: sandbox)
    do {
      return try await command.run(parsed, session).rawValue
    } catch {
      // Standard output's own failure is said once, by `run`.
      if let failure = terminal.outputFailure(), error as? WriteFailure == failure { return ExitCode.failure.rawValue }
      let (message, code) = describe(error)
      // An error's message may quote the server (X's own `detail`, a job's status, a name).
      terminal.err("tweets: error: \(TerminalText.visible(message, keepingLines: true))")
      return code.rawValue
    }
  }

  /// The status `run` returns when standard output refused a write, whatever the command
  /// returned: 1 and the reason on stderr (a full disk, an I/O error), or, for a reader that
  /// went away (`| head -1`), nothing said and 141, the status of a process SIGPIPE killed,
  /// which the program then becomes (``CheckedOutput/exit(_:)``).
  static func outputFailed(_ failure: WriteFailure, _ terminal: Terminal) -> Int32 {
    if failure.isClosedPipe { return 128 + SIGPIPE }
    terminal.err("tweets: error: \(failure)")
    return ExitCode.failure.rawValue
  }

  /// The message and exit status for any failure.
  static func describe(_ error: any Error) -> (String, ExitCode) {
    switch error {
    case let error as UsageError: return (error.message, .usage)
    case let error as TweetsFailure: return (error.message, error.exitCode)
    case let error as XError where error.budget != nil: return describe(error.budget!)
    case let error as XError:
      var message = error.description
      switch error {
      case .couldNotAuthenticate, .unauthorized: message += " Run with --verbose to see the signature base string."
      default: break
      }
      if ExitCode.for(error) == .serverError { message += (message.hasSuffix(".") ? "" : ".") + " Try again later." }
      return (message, ExitCode.for(error))
    case let error as OAuthFlowError: return (error.description, ExitCode.for(error))
    case let error as XBudgetError: return (error.description, .budget)
    case let error as OAuth2Error:
      return (error.description, error.code == "rate_limited" ? .rateLimited : error.isFinal ? .authentication : .serverError)
    // A behavior's own failure (a token renewal that could not happen) speaks for itself.
    case XError.network(.rejected(_, let underlying)), NetworkError.rejected(_, let underlying): return describe(underlying)
    case let error as NetworkError: return (error.description, .failure)
    case let error as ArchiveError: return (error.description, .failure)
    case let error as WriteFailure: return (error.description, .failure)
    case let stop as Interruption.Stopped: return (stop.description, stop.exitCode)
    default: return (Redaction.text("\(error)"), .failure)
    }
  }
}
