/// Describes one command: its options and positional arguments, from which both parsing
/// and the usage text are derived, so the two cannot disagree.
///
/// ```swift
/// let url = Option.value("url", placeholder: "URL", help: "The request URL as sent.")
/// let json = Option.flag("json", help: "Print one JSON object.")
/// let sign = CommandSpec(name: "oauth1 sign", summary: "Signs a request and prints every stage.", options: [url, json])
/// let arguments = try sign.parse(["--url", "https://api.x.com/2/users/me", "--json"])
/// arguments[url]  // "https://api.x.com/2/users/me"
/// ```
package struct CommandSpec: Sendable {
  /// The full name as typed, program and subcommand (`oauth1 sign`), for the usage line.
  package let name: String
  /// One sentence saying what the command does, for the overview and the completions.
  package let summary: String
  /// Every option, `--help` last (added by the initializer).
  package let options: [OptionSpec]
  /// The positional arguments, in order.
  package let positionals: [PositionalSpec]
  /// Free text printed after the options in `usage`, such as examples.
  package let discussion: String

  /// Describes a command; `--help` is added to `options`, which come from typed ``Option``s (or
  /// bare ``OptionSpec``s).
  package init(name: String, summary: String, options: [any OptionDeclaration], positionals: [PositionalSpec] = [], discussion: String = "") {
    self.name = name
    self.summary = summary
    self.options = options.map(\.spec) + [Self.help.spec]
    self.positionals = positionals
    self.discussion = discussion
  }

  /// The subcommand's own name: the last word of ``name`` (`sign` for `oauth1 sign`).
  package var subcommand: String { String(name.split(separator: " ").last ?? "") }

  /// `--help`, which every command takes.
  package static let help = Option.flag("help", short: "h", help: "Show this help.")

  /// Finds an option by its long name.
  package func option(named name: String) -> OptionSpec? {
    options.first { $0.name == name }
  }
}

/// One `--name` option.
package struct OptionSpec: Sendable {
  /// Whether the option takes a value, and how many times.
  package enum Kind: Sendable, Equatable {
    /// Present or absent; takes no value.
    case flag
    /// Takes one value, at most once.
    case value(placeholder: String)
    /// Takes one value each time; may be repeated.
    case repeatable(placeholder: String)
  }

  /// The long name, without `--`.
  package let name: String
  /// The one-letter alias (`-X`), if any.
  package let short: Character?
  /// Flag, single value or repeatable value.
  package let kind: Kind
  /// One or two sentences for the usage text; the first also describes the option in completions.
  package let help: String
  /// How a stored command line (``CommandSpec/recordedArguments(_:)``) keeps the option.
  package var recorded: Recording = .kept

  /// A flag: present or absent. Prefer ``Option/flag(_:short:help:recorded:)``, which is read as a `Bool`.
  package static func flag(_ name: String, short: Character? = nil, help: String, recorded: Recording = .kept) -> OptionSpec {
    OptionSpec(name: name, short: short, kind: .flag, help: help, recorded: recorded)
  }

  /// An option with one value, given at most once; `placeholder` names the value in the usage.
  /// Prefer ``Option/value(_:short:placeholder:help:recorded:)``, which is read as a `String?`.
  package static func value(
    _ name: String, short: Character? = nil, placeholder: String, help: String, recorded: Recording = .kept
  ) -> OptionSpec {
    OptionSpec(name: name, short: short, kind: .value(placeholder: placeholder), help: help, recorded: recorded)
  }

  /// An option that may be given many times, one value each. Prefer
  /// ``Option/repeatable(_:short:placeholder:help:recorded:)``, which is read as a `[String]`.
  package static func repeatable(
    _ name: String, short: Character? = nil, placeholder: String, help: String, recorded: Recording = .kept
  ) -> OptionSpec {
    OptionSpec(name: name, short: short, kind: .repeatable(placeholder: placeholder), help: help, recorded: recorded)
  }

  var takesValue: Bool { kind != .flag }
}

/// One positional argument.
package struct PositionalSpec: Sendable {
  /// The name shown in the usage line (uppercased there).
  package let name: String
  /// What the argument is, for the usage text.
  package let help: String
  /// Whether it may be left out.
  package let optional: Bool
  /// Whether it takes every remaining argument.
  package let variadic: Bool

  /// A positional argument; `optional` ones may be left out, a `variadic` one takes every
  /// remaining argument.
  package init(_ name: String, help: String, optional: Bool = false, variadic: Bool = false) {
    self.name = name
    self.help = help
    self.optional = optional
    self.variadic = variadic
  }
}
