import CommandLineSupport

/// One `oauth1` command: a ``Command`` declared once, statically (its ``spec`` and its options),
/// that needs nothing but its arguments and ends with the exit status ``OAuth1Command``
/// documents. ``OAuth1Command/run(_:_:)`` parses, answers `--help` and `--version`, and turns a
/// failure into a message.
protocol OAuth1Subcommand: Command where Context == Void, Status == Int32 {
  /// The command's options, positionals and help.
  static var spec: CommandSpec { get }
  /// Does the command's work on `parsed`; a ``UsageError`` is wrong usage (exit status 2).
  static func run(_ parsed: ParsedArguments) async throws -> Int32
}

extension OAuth1Subcommand {
  /// The command's static ``spec``.
  var spec: CommandSpec { Self.spec }

  /// Runs the command's static ``run(_:)``.
  func run(_ arguments: ParsedArguments, _ context: Void) async throws -> Int32 { try await Self.run(arguments) }
}
