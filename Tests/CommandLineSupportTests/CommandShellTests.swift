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
}
