import CommandLineSupport
import Testing

@Suite("Argument parsing")
struct ArgumentParsingTests {
  static let method = Option.value("method", short: "X", placeholder: "METHOD", help: "HTTP method.")
  static let form = Option.repeatable("form", placeholder: "NAME=VALUE", help: "A form field.")
  static let json = Option.flag("json", help: "JSON output.")
  static let limit = Option.value("limit", placeholder: "N", help: "How many.")

  let spec = CommandSpec(
    name: "tool run",
    summary: "Runs things.",
    options: [Self.method, Self.form, Self.json, Self.limit],
    positionals: [PositionalSpec("path", help: "The path."), PositionalSpec("rest", help: "More.", optional: true, variadic: true)])

  @Test func valuesFlagsAndPositionals() throws {
    let parsed = try spec.parse(["--method", "POST", "/a", "--json", "--form=a=1", "--form", "b=2", "x", "y"])
    #expect(parsed[Self.method] == "POST")
    #expect(parsed[Self.json])
    #expect(!parsed[CommandSpec.help])
    #expect(parsed[Self.form] == ["a=1", "b=2"])
    #expect(parsed.positionals == ["/a", "x", "y"])
    #expect(parsed.givenOptions == ["form", "json", "method"])
  }

  @Test func shortOptionsAndDoubleDash() throws {
    let parsed = try spec.parse(["-X", "PUT", "--", "--not-an-option", "-"])
    #expect(parsed[Self.method] == "PUT")
    #expect(parsed.positionals == ["--not-an-option", "-"])
  }

  @Test func inlineValueMayContainEqualsAndBeEmpty() throws {
    let parsed = try spec.parse(["--method=", "p", "--form=a=b=c"])
    #expect(parsed[Self.method] == "")
    #expect(parsed[Self.form] == ["a=b=c"])
  }

  @Test func helpSkipsPositionalChecks() throws {
    #expect(try spec.parse(["--help"])[CommandSpec.help])
    #expect(try spec.parse(["-h"])[CommandSpec.help])
  }

  @Test(arguments: [
    (["--metod", "GET", "p"], "unknown option --metod (did you mean --method?)"),
    (["--zzzzzzzz", "p"], "unknown option --zzzzzzzz"),
    (["-Q", "p"], "unknown option -Q"),
    (["p", "--method"], "--method needs a value"),
    (["--json=yes", "p"], "--json takes no value"),
    (["--method", "GET", "--method", "PUT", "p"], "--method is given more than once"),
    ([], "missing PATH"),
  ])
  func usageErrors(arguments: [String], message: String) {
    #expect(throws: UsageError(message)) { try spec.parse(arguments) }
  }

  @Test func tooManyPositionals() {
    let single = CommandSpec(name: "one", summary: "", options: [], positionals: [PositionalSpec("id", help: "")])
    #expect(throws: UsageError("unexpected argument \"b\"")) { try single.parse(["a", "b"]) }
  }

  @Test func integers() throws {
    #expect(try spec.parse(["--limit", "20", "p"]).integer(Self.limit, in: 1...100) == 20)
    #expect(try spec.parse(["p"]).integer(Self.limit) == nil)
    #expect(throws: UsageError("--limit takes a whole number from 1 to 100, not \"0\"")) {
      try spec.parse(["--limit", "0", "p"]).integer(Self.limit, in: 1...100)
    }
    #expect(throws: UsageError("--limit takes a whole number, not \"ten\"")) {
      try spec.parse(["--limit", "ten", "p"]).integer(Self.limit)
    }
    #expect(throws: UsageError("--limit takes a whole number of at least 0, not \"-1\"")) {
      try spec.parse(["--limit", "-1", "p"]).integer(Self.limit, in: 0...Int64.max)
    }
  }

  @Test func usageListsEveryOptionAndArgument() {
    let usage = spec.usage
    #expect(usage.hasPrefix("Runs things.\n\nUsage: tool run [options] PATH [REST...]\n"))
    for option in spec.options {
      #expect(usage.contains("--\(option.name)"), "usage lacks --\(option.name)")
    }
    #expect(usage.contains("-X, --method METHOD"))
    #expect(usage.contains("--form NAME=VALUE  (repeatable)"))
    #expect(usage.contains("PATH"))
  }
}
