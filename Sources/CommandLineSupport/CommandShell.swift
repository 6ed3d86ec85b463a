/// The command-dispatch shell `tweets` and `oauth1` share. It answers what is the same for every
/// command-line tool: the overview, `help [COMMAND]`, `--help`, `--version`,
/// `completions SHELL`, and a missing or unknown command (with a suggestion). It hands a known
/// command back with its arguments. It prints nothing itself, so each tool writes the answer
/// to its own terminal.
///
/// ```swift
/// let shell = CommandShell(program: "oauth1", version: "0.1.0", summary: "OAuth 1.0a signing, stage by stage.",
///                          commands: [SignCommand.spec, VerifyCommand.spec])
/// switch shell.dispatch(CommandLine.arguments.dropFirst().map { $0 }) {
/// case .finished(let answer): answer.write(); exit(answer.status)
/// case .run(let command, let arguments): …
/// }
/// ```
package struct CommandShell: Sendable {
  /// The command's name as typed (`tweets`), used in every message and in the completions.
  package let program: String
  /// What `--version` prints after the program's name.
  package let version: String
  /// One line saying what the tool is for.
  package let summary: String
  /// The subcommands; each spec's last word is the subcommand's name.
  package let commands: [CommandSpec]
  /// Text after the command list in the overview (examples, exit statuses).
  package let epilogue: String
  /// Text after a command's own usage (exit statuses shared by every command).
  package let commandEpilogue: String
  /// Options that may come before the subcommand and take a value, so that their value is not
  /// taken for the subcommand (`tweets --profile work timeline`).
  package let leadingOptions: [OptionSpec]

  /// A shell for `program` and its subcommands; `epilogue`, `commandEpilogue` and
  /// `leadingOptions` are as the properties of the same names describe.
  package init(
    program: String, version: String, summary: String, commands: [CommandSpec], epilogue: String = "", commandEpilogue: String = "",
    leadingOptions: [any OptionDeclaration] = []
  ) {
    self.program = program
    self.version = version
    self.summary = summary
    self.commands = commands
    self.epilogue = epilogue
    self.commandEpilogue = commandEpilogue
    self.leadingOptions = leadingOptions.map(\.spec)
  }

  /// What the shell made of a command line.
  package enum Outcome: Sendable, Equatable {
    /// Run this subcommand with these arguments (the ones before it included).
    case run(command: String, arguments: [String])
    /// Answered already: write this and exit with its status.
    case finished(Answer)
  }

  /// Text for the standard output and the standard error, and an exit status (0, or 2 for
  /// wrong usage).
  package struct Answer: Sendable, Equatable {
    /// Text for the standard output (help, the version, a completion script); may be empty.
    package let standardOutput: String
    /// Text for the standard error (an error and what to do); may be empty.
    package let standardError: String
    /// The exit status: 0 for an answer, 2 for wrong usage.
    package let status: Int32
  }

  /// Reads a command line (without the program's name): answers what the shell answers itself,
  /// or names the subcommand to run and its arguments.
  package func dispatch(_ arguments: [String]) -> Outcome {
    let (name, rest) = split(arguments)
    guard let name else {
      if arguments.contains("--version") { return .finished(Answer(standardOutput: "\(program) \(version)\n", standardError: "", status: 0)) }
      if arguments.contains("--help") || arguments.contains("-h") { return .finished(Answer(standardOutput: overview, standardError: "", status: 0)) }
      return usageError("no command given", showing: overview)
    }
    switch name {
    case "help":
      guard let topic = rest.first(where: { !$0.hasPrefix("-") }) else {
        return .finished(Answer(standardOutput: overview, standardError: "", status: 0))
      }
      guard let command = command(named: topic) else { return unknown(topic) }
      return .finished(Answer(standardOutput: help(command), standardError: "", status: 0))
    case "completions":
      guard rest.count == 1, let shell = Completions.Shell(rawValue: rest[0]) else {
        return usageError("completions: name one shell: bash, zsh or fish", showing: "Usage: \(program) completions bash|zsh|fish\n")
      }
      return .finished(Answer(standardOutput: Completions.script(for: program, commands: commands, shell: shell), standardError: "", status: 0))
    default:
      guard command(named: name) != nil else { return unknown(name) }
      return .run(command: name, arguments: rest)
    }
  }

  /// The subcommand called `name`.
  package func command(named name: String) -> CommandSpec? {
    commands.first { $0.subcommand == name }
  }

  /// Parses `arguments` for `command`, one of the shell's, as ``CommandSpec/parse(_:)`` does; an
  /// option it does not take but another command does is a usage error that says so:
  /// `tweets post does not take --limit: timeline, search … do`.
  package func parse(_ arguments: [String], for command: CommandSpec) throws(UsageError) -> ParsedArguments {
    try command.parse(arguments, others: commands.filter { $0.name != command.name })
  }

  /// A command's usage, then the shared epilogue.
  package func help(_ command: CommandSpec) -> String {
    command.usage + (commandEpilogue.isEmpty ? "" : "\n" + commandEpilogue + "\n")
  }

  /// What the tool is, its commands, and the epilogue.
  package var overview: String {
    var lines = ["\(program): \(summary)", "", "Usage: \(program) <command> [options]", "", "Commands:"]
    let width = max(12, (commands.map(\.subcommand.count) + ["completions".count]).max()! + 1)
    func line(_ name: String, _ text: String) { lines.append("  " + name.padding(to: width) + text) }
    for command in commands { line(command.subcommand, command.summary) }
    line("help", "Show help for a command: \(program) help \(commands.first?.subcommand ?? "")")
    line("completions", "Print a completion script: \(program) completions bash|zsh|fish")
    if !epilogue.isEmpty { lines += ["", epilogue] }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The subcommand's name (the first argument that is neither an option nor an option's
  /// value) and the other arguments, in order.
  package func split(_ arguments: [String]) -> (String?, [String]) {
    let valueOptions = Set(leadingOptions.filter(\.takesValue).flatMap { ["--" + $0.name] + ($0.short.map { ["-\($0)"] } ?? []) })
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

  private func unknown(_ name: String) -> Outcome {
    let names = commands.map(\.subcommand)
    let near = names.filter { $0.hasPrefix(String(name.prefix(2))) || editDistance($0, name) <= 2 }
    let suggestion = near.isEmpty ? "" : " (did you mean \(near.joined(separator: " or "))?)"
    return usageError(
      "unknown command \(CommandSpec.shown(name))\(suggestion)",
      showing: "Usage: \(program) <command> [options]\nRun `\(program) help` for the commands.\n")
  }

  private func usageError(_ message: String, showing text: String) -> Outcome {
    .finished(Answer(standardOutput: "", standardError: "\(program): error: \(message)\n" + text, status: 2))
  }
}

extension String {
  fileprivate func padding(to width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }
}
