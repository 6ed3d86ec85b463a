/// An option declared once, with the type it is read as: its ``OptionSpec`` feeds the parser,
/// the usage text and the completion scripts, and its value is read through the declaration
/// (`arguments[Self.url]`), so a misspelt option name does not compile.
///
/// ```swift
/// enum SignOptions {
///   static let url = Option.value("url", placeholder: "URL", help: "The request URL as sent.")
///   static let json = Option.flag("json", help: "Print one JSON object.")
/// }
/// let spec = CommandSpec(name: "oauth1 sign", summary: "…", options: [SignOptions.url, SignOptions.json])
/// let arguments = try spec.parse(["--url", "https://api.x.com/2/users/me", "--json"])
/// arguments[SignOptions.url]   // "https://api.x.com/2/users/me" (a String?)
/// arguments[SignOptions.json]  // true (a Bool)
/// ```
package struct Option<Value: Sendable>: OptionDeclaration, Sendable {
  /// The declaration the parser, the usage text and the completions use.
  package let spec: OptionSpec
  fileprivate let read: @Sendable (ParsedArguments) -> Value

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
  /// Present or absent.
  package static func flag(_ name: String, short: Character? = nil, help: String) -> Self {
    Option(spec: .flag(name, short: short, help: help)) { $0.flag(name) }
  }
}

extension Option where Value == String? {
  /// One value, at most once; `nil` when not given. Integers are read with
  /// ``ParsedArguments/integer(_:in:)``, which names the option in its error.
  package static func value(_ name: String, short: Character? = nil, placeholder: String, help: String) -> Self {
    Option(spec: .value(name, short: short, placeholder: placeholder, help: help)) { $0.value(name) }
  }
}

extension Option where Value == [String] {
  /// One value each time it is given, in order.
  package static func repeatable(_ name: String, short: Character? = nil, placeholder: String, help: String) -> Self {
    Option(spec: .repeatable(name, short: short, placeholder: placeholder, help: help)) { $0.values(name) }
  }
}

extension ParsedArguments {
  /// The value of `option`, as its declaration types it.
  package subscript<Value>(_ option: Option<Value>) -> Value { option.read(self) }

  /// Whether `option` was given at all.
  package func has<Value>(_ option: Option<Value>) -> Bool { has(option.name) }

  /// The value of `option` as an integer in `range`; a ``UsageError`` names the option when it
  /// is not one.
  package func integer(_ option: Option<String?>, in range: ClosedRange<Int64> = Int64.min...Int64.max) throws(UsageError) -> Int64? {
    try integer(option.name, in: range)
  }
}
