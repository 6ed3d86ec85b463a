import CommandLineSupport
import Testing

/// Finding the subcommand among options given before it.
@Suite("Command shell")
struct CommandShellTests {
  let shell = CommandShell(
    program: "tool", version: "1", summary: "s",
    commands: [CommandSpec(name: "tool run", summary: "Run.", options: [])],
    leadingOptions: [Option.value("output", short: "o", placeholder: "FILE", help: "Out."), Option.flag("verbose", short: "v", help: "More.")])

  @Test func leadingOptionsLongAndShortWithTheirValues() {
    let (long, longRest) = shell.split(["--output", "run.txt", "run", "x"])
    #expect(long == "run" && longRest == ["--output", "run.txt", "x"])
    // A short option's value is not the command's name.
    let (short, shortRest) = shell.split(["-o", "out.txt", "-v", "run"])
    #expect(short == "run" && shortRest == ["-o", "out.txt", "-v"])
  }

  /// An option of another command is not "unknown": the error names this command and the ones
  /// that take it.
  @Test func anOptionOfAnotherCommandIsNamedAsSuch() throws {
    let limit = Option.value("limit", short: "l", placeholder: "N", help: "At most N.")
    let shell = CommandShell(
      program: "tool", version: "1", summary: "s",
      commands: [
        CommandSpec(name: "tool list", summary: "List.", options: [limit]), CommandSpec(name: "tool scan", summary: "Scan.", options: [limit]),
        CommandSpec(name: "tool post", summary: "Post.", options: [Option.flag("draft", help: "A draft.")]),
      ])
    let post = try #require(shell.command(named: "post"))
    #expect(throws: UsageError("tool post does not take --limit: list and scan do")) { try shell.parse(["--limit", "5"], for: post) }
    #expect(throws: UsageError("tool post does not take --limit: list and scan do")) { try shell.parse(["--limit=5"], for: post) }
    #expect(throws: UsageError("tool post does not take -l: list and scan do")) { try shell.parse(["-l", "5"], for: post) }
    #expect(throws: UsageError("unknown option --drat (did you mean --draft?)")) { try shell.parse(["--drat"], for: post) }
    #expect(try shell.parse(["--limit", "5"], for: try #require(shell.command(named: "list")))[limit] == "5")
    // The spec alone knows no other command.
    #expect(throws: UsageError("unknown option --limit")) { try post.parse(["--limit", "5"]) }
  }
}
