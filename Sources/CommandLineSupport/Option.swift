/// An option declared once, with the type it is read as. The declaration carries everything said
/// about the option: its names, its help, its value's placeholder, its default, the conversion
/// from the argument (and the error for a bad one) and how a stored command line records it. The
/// parser, the usage text and the completion scripts read its ``OptionSpec``; a command reads its
/// value through the declaration, so a misspelt option name does not compile.
///
/// ```swift
/// enum FetchOptions {
///   static let limit = Option<Int>.value(
///     "limit", placeholder: "N", default: .value(20), help: "At most N tweets (default \(.default)).", .integer(in: 1...1_000_000))
///   static let json = Option.flag("json", help: "Print one JSON object.")
/// }
/// let spec = CommandSpec(name: "tweets timeline", summary: "…", options: [FetchOptions.limit, FetchOptions.json])
/// let arguments = try spec.parse(["--json"])
/// try arguments.value(FetchOptions.limit)  // 20 (an Int): the default
/// arguments[FetchOptions.json]             // true (a Bool)
/// ```
///
/// A value is converted when it is read, not when the command line is parsed, so that a command
/// checks its options in the order it chooses and `--help` is answered whatever the values.
package struct Option<Value: Sendable>: OptionDeclaration, Sendable {
  /// The declaration the parser, the usage text and the completions use.
  package let spec: OptionSpec
  fileprivate let resolve: @Sendable (ParsedArguments, [String: String]) throws(UsageError) -> Value

  /// The option's long name, without `--`.
  package var name: String { spec.name }
}

/// Anything a ``CommandSpec`` lists as an option: a typed ``Option`` or a bare ``OptionSpec``.
package protocol OptionDeclaration: Sendable {
  /// The option as the parser sees it.
  var spec: OptionSpec { get }
}

extension OptionSpec: OptionDeclaration {
  /// The spec itself, so bare specs can be listed beside typed options.
  package var spec: OptionSpec { self }
}

extension Option where Value == Bool {
  /// Present or absent; `recorded` says how a stored command line keeps it.
  package static func flag(_ name: String, short: Character? = nil, help: String, recorded: OptionSpec.Recording = .kept) -> Self {
    Option(spec: .flag(name, short: short, help: help, recorded: recorded)) { arguments, _ in arguments.flag(name) }
  }
}

extension Option where Value == String? {
  /// One value, at most once, as given; `nil` when not given. Integers are read with
  /// ``ParsedArguments/integer(_:in:)``, which names the option in its error; an option with a
  /// conversion or a default is declared with ``value(_:short:placeholder:environment:help:recorded:_:)``.
  package static func value(
    _ name: String, short: Character? = nil, placeholder: String, help: String, recorded: OptionSpec.Recording = .kept
  ) -> Self {
    Option(spec: .value(name, short: short, placeholder: placeholder, help: help, recorded: recorded)) { arguments, _ in arguments.value(name) }
  }
}

extension Option where Value == [String] {
  /// One value each time it is given, in order.
  package static func repeatable(
    _ name: String, short: Character? = nil, placeholder: String, help: String, recorded: OptionSpec.Recording = .kept
  ) -> Self {
    Option(spec: .repeatable(name, short: short, placeholder: placeholder, help: help, recorded: recorded)) { arguments, _ in
      arguments.values(name)
    }
  }
}

extension Option {
  /// One value, at most once, converted by `conversion`; when it is not given, the value of the
  /// first of the `environment` variables that is set, else `default`. The help shows the
  /// default where it says `\(.default)` and the first variable where it says `\(.environment)`.
  package static func value(
    _ name: String, short: Character? = nil, placeholder: String, default defaultValue: OptionDefault<Value>, environment: [String] = [],
    help: OptionHelp, recorded: OptionSpec.Recording = .kept, _ conversion: ArgumentConversion<Value>
  ) -> Self {
    let shown =
      switch defaultValue {
      case .value(let value): conversion.shown(value)
      case .computed(let shown, _): shown
      }
    let text = help.rendered(default: shown, environment: environment.first)
    return Option(spec: .value(name, short: short, placeholder: placeholder, help: text, recorded: recorded)) {
      (arguments, variables) throws(UsageError) -> Value in
      if let given = arguments.value(name) ?? environment.lazy.compactMap({ variables[$0] }).first {
        return try conversion.convert(given, option: name)
      }
      switch defaultValue {
      case .value(let value): return value
      case .computed(_, let value): return value(arguments, variables)
      }
    }
  }

  /// One value, at most once, converted by `conversion`; when it is not given, the value of the
  /// first of the `environment` variables that is set, else `nil`.
  package static func value<Wrapped>(
    _ name: String, short: Character? = nil, placeholder: String, environment: [String] = [], help: OptionHelp,
    recorded: OptionSpec.Recording = .kept, _ conversion: ArgumentConversion<Wrapped>
  ) -> Self where Value == Wrapped? {
    let text = help.rendered(default: nil, environment: environment.first)
    return Option(spec: .value(name, short: short, placeholder: placeholder, help: text, recorded: recorded)) {
      (arguments, variables) throws(UsageError) -> Value in
      guard let given = arguments.value(name) ?? environment.lazy.compactMap({ variables[$0] }).first else { return nil }
      return try conversion.convert(given, option: name)
    }
  }
}

/// What an ``Option`` is when it is not given.
package enum OptionDefault<Value: Sendable>: Sendable {
  /// This value, shown in the help as its conversion shows it.
  case value(Value)
  /// A value that depends on the other options or the environment, shown in the help as `shown`.
  case computed(shown: String, @Sendable (ParsedArguments, [String: String]) -> Value)
}

extension ParsedArguments {
  /// The value of `option`, as its declaration resolves it: the argument converted, else the
  /// first of its environment variables in `environment` that is set, else its default. A
  /// ``UsageError`` names the option when the value is not one it takes.
  package func value<Value>(_ option: Option<Value>, environment: [String: String] = [:]) throws(UsageError) -> Value {
    try option.resolve(self, environment)
  }

  /// Whether the flag `option` was given.
  package subscript(_ option: Option<Bool>) -> Bool { flag(option.name) }

  /// The value of `option` as given, or `nil`.
  package subscript(_ option: Option<String?>) -> String? { value(option.name) }

  /// Every value of the repeatable `option`, in order.
  package subscript(_ option: Option<[String]>) -> [String] { values(option.name) }

  /// The argument of `option` as typed, before its conversion; `nil` when not given.
  package func given<Value>(_ option: Option<Value>) -> String? { value(option.name) }

  /// Whether `option` was given at all.
  package func has<Value>(_ option: Option<Value>) -> Bool { has(option.name) }

  /// The value of `option` as an integer in `range`; a ``UsageError`` names the option when it
  /// is not one.
  package func integer(_ option: Option<String?>, in range: ClosedRange<Int64> = Int64.min...Int64.max) throws(UsageError) -> Int64? {
    try integer(option.name, in: range)
  }
}
