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
public struct CommandSpec: Sendable {
  public let name: String
  public let summary: String
  public let options: [OptionSpec]
  public let positionals: [PositionalSpec]
  /// Free text printed after the options in `usage`, such as examples.
  public let discussion: String

  public init(name: String, summary: String, options: [any OptionDeclaration], positionals: [PositionalSpec] = [], discussion: String = "") {
    self.name = name
    self.summary = summary
    self.options = options.map(\.spec) + [Self.help.spec]
    self.positionals = positionals
    self.discussion = discussion
  }

  /// `--help`, which every command takes.
  public static let help = Option.flag("help", short: "h", help: "Show this help.")

  /// Finds an option by its long name.
  public func option(named name: String) -> OptionSpec? {
    options.first { $0.name == name }
  }
}

/// One `--name` option.
public struct OptionSpec: Sendable {
  public enum Kind: Sendable, Equatable {
    /// Present or absent; takes no value.
    case flag
    /// Takes one value, at most once.
    case value(placeholder: String)
    /// Takes one value each time; may be repeated.
    case repeatable(placeholder: String)
  }

  public let name: String
  public let short: Character?
  public let kind: Kind
  public let help: String

  public static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
    OptionSpec(name: name, short: short, kind: .flag, help: help)
  }

  public static func value(_ name: String, short: Character? = nil, placeholder: String, help: String) -> OptionSpec {
    OptionSpec(name: name, short: short, kind: .value(placeholder: placeholder), help: help)
  }

  public static func repeatable(_ name: String, short: Character? = nil, placeholder: String, help: String) -> OptionSpec {
    OptionSpec(name: name, short: short, kind: .repeatable(placeholder: placeholder), help: help)
  }

  var takesValue: Bool { kind != .flag }
}

/// One positional argument.
public struct PositionalSpec: Sendable {
  public let name: String
  public let help: String
  /// Whether it may be left out.
  public let optional: Bool
  /// Whether it takes every remaining argument.
  public let variadic: Bool

  public init(_ name: String, help: String, optional: Bool = false, variadic: Bool = false) {
    self.name = name
    self.help = help
    self.optional = optional
    self.variadic = variadic
  }
}
