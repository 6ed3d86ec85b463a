/// One subcommand of a command-line tool, as `tweets` and `oauth1` both declare theirs: its
/// declaration (``spec``), from which its parser, its usage and the completions derive, and its
/// work on the arguments that parsed (``run(_:_:)``). A tool lists its commands' specs in its
/// ``CommandShell``, which hands back the one named with its arguments.
///
/// ```swift
/// struct Greet: Command {
///   static let name = Option.value("name", placeholder: "NAME", help: "Whom to greet.")
///   let spec = CommandSpec(name: "hello greet", summary: "Says hello.", options: [Greet.name])
///   func run(_ arguments: ParsedArguments, _ context: Void) async throws -> Int32 {
///     print("Hello, \(arguments[Self.name] ?? "world")!")
///     return 0
///   }
/// }
/// ```
package protocol Command<Context, Status>: Sendable {
  /// What the tool hands every command beside its arguments (`tweets` a session; `oauth1` nothing).
  associatedtype Context
  /// What a run ends with: the tool's exit status.
  associatedtype Status

  /// The command's options, positionals and help.
  var spec: CommandSpec { get }

  /// Does the command's work on `arguments`, parsed by ``spec``; a ``UsageError`` is wrong usage.
  func run(_ arguments: ParsedArguments, _ context: Context) async throws -> Status
}
