import CommandLineSupport
import Testing

@Suite("Options declared once")
struct OptionTests {
  static let limit = Option<Int>.value(
    "limit", placeholder: "N", default: .value(20), help: "At most N (default \(.default)).", .integer(in: 1...100))
  static let name = Option<String>.value(
    "name", placeholder: "NAME", default: .computed(shown: "\"anonymous\"") { _, _ in "anonymous" }, environment: ["TOOL_NAME", "OLD_NAME"],
    help: "Who (default \(.default); env \(.environment)).", .string)
  static let since = Option<Int?>.value("since", placeholder: "N", help: "From N on.", recorded: .omitted, .integer(in: 0...Int.max))
  static let secret = Option.value("secret", short: "s", placeholder: "S", help: "A secret.", recorded: .omitted)
  static let quiet = Option.flag("quiet", short: "q", help: "Say less.", recorded: .omitted)
  static let url = Option.value("url", placeholder: "URL", help: "Where.", recorded: .rewritten { "<" + $0 + ">" })

  let spec = CommandSpec(
    name: "tool run", summary: "Runs.", options: [Self.limit, Self.name, Self.since, Self.secret, Self.quiet, Self.url],
    positionals: [PositionalSpec("rest", help: "More.", optional: true, variadic: true)])

  @Test func theHelpShowsTheDefaultAndTheVariableOfTheDeclaration() {
    #expect(spec.usage.contains("--limit N                     At most N (default 20).\n"))
    #expect(spec.usage.contains("--name NAME                   Who (default \"anonymous\"; env TOOL_NAME).\n"))
  }

  @Test func aValueIsConvertedOrDefaultedWhenRead() throws {
    #expect(try spec.parse([]).value(Self.limit) == 20)
    #expect(try spec.parse(["--limit", "7"]).value(Self.limit) == 7)
    #expect(try spec.parse([]).value(Self.since) == nil)
    #expect(throws: UsageError("--limit takes a whole number from 1 to 100, not \"0\"")) { try spec.parse(["--limit", "0"]).value(Self.limit) }
    #expect(try spec.parse(["--limit", "x", "--help"])[CommandSpec.help])
    #expect(try spec.parse(["--limit", "x"]).given(Self.limit) == "x")
  }

  @Test func theEnvironmentComesBetweenTheArgumentAndTheDefault() throws {
    #expect(try spec.parse([]).value(Self.name) == "anonymous")
    #expect(try spec.parse([]).value(Self.name, environment: ["OLD_NAME": "old", "TOOL_NAME": "new"]) == "new")
    #expect(try spec.parse([]).value(Self.name, environment: ["OLD_NAME": "old"]) == "old")
    #expect(try spec.parse(["--name", "given"]).value(Self.name, environment: ["TOOL_NAME": "new"]) == "given")
  }

  @Test func theStoredCommandLineKeepsWhatTheDeclarationsSay() {
    let arguments = ["a", "--limit", "5", "--since", "3", "-s", "x", "--secret=y", "-q", "--quiet", "--url", "u", "--url=v", "--since=4", "b"]
    #expect(spec.recordedArguments(arguments) == ["a", "--limit", "5", "--url", "<u>", "--url=<v>", "b"])
  }
}
