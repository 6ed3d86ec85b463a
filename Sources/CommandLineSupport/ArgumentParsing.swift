/// Wrong usage of a command: the message says what was wrong; the caller prints it with the
/// usage and exits with status 2.
package struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What was wrong, naming the option or argument: "missing --url", "--limit takes a whole number …".
  package let message: String
  /// A usage error saying `message` (without the program's name, which the caller adds).
  package init(_ message: String) { self.message = message }
  package var description: String { message }
}

/// The arguments of one command line, sorted by option.
package struct ParsedArguments: Sendable, Equatable {
  var values: [String: [String]] = [:]
  var flags: Set<String> = []
  /// The positional arguments, in order (everything after `--` included).
  package internal(set) var positionals: [String] = []
  /// The values of every option taking one, as (name, value) in the order given: for options
  /// that pair with the one before them (`--media a --alt "A" --media b`).
  package internal(set) var valuesInOrder: [(name: String, value: String)] = []

  package static func == (lhs: ParsedArguments, rhs: ParsedArguments) -> Bool {
    lhs.values == rhs.values && lhs.flags == rhs.flags && lhs.positionals == rhs.positionals
  }

  // Read by name inside this module only: commands read through their typed ``Option``s.

  /// Whether the flag `--name` was given.
  func flag(_ name: String) -> Bool { flags.contains(name) }

  /// The value of `--name`, if given.
  func value(_ name: String) -> String? { values[name]?.last }

  /// Every value of a repeatable `--name`, in order.
  func values(_ name: String) -> [String] { values[name] ?? [] }

  /// The names of every option given, sorted.
  package var givenOptions: [String] { (Array(flags) + Array(values.keys)).sorted() }

  /// Whether `--name` was given at all.
  func has(_ name: String) -> Bool { flags.contains(name) || values[name] != nil }

  /// The value of `--name` as an integer in `range`; a ``UsageError`` names the option when it
  /// is not one.
  func integer(_ name: String, in range: ClosedRange<Int64> = Int64.min...Int64.max) throws(UsageError) -> Int64? {
    guard let text = value(name) else { return nil }
    guard let number = Int64(text), range.contains(number) else {
      throw UsageError("--\(name) takes a whole number\(wholeNumberBounds(range.lowerBound, range.upperBound)), not \"\(text)\"")
    }
    return number
  }
}

extension CommandSpec {
  /// Parses `arguments` (without the program and command names).
  ///
  /// Accepts `--name value`, `--name=value`, `-n value`, flags, and `--` before positionals
  /// that start with `-`. Unknown options, a missing value, a value given to a flag, a
  /// non-repeatable option given twice and a wrong number of positionals are errors.
  package func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
    try parse(arguments, others: [])
  }

  /// As ``parse(_:)``; an option this command does not take but one of `others` does is named as
  /// such (``notTaken(_:others:)``) rather than as unknown.
  func parse(_ arguments: [String], others: [CommandSpec]) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var index = 0
    var onlyPositionals = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositionals = true
        continue
      }

      var name: String
      var inlineValue: String? = nil
      if argument.hasPrefix("--") {
        name = String(argument.dropFirst(2))
        if let equals = name.firstIndex(of: "=") {
          inlineValue = String(name[name.index(after: equals)...])
          name = String(name[..<equals])
        }
      } else {
        guard argument.count == 2, let short = argument.last,
          let option = options.first(where: { $0.short == short })
        else {
          throw notTaken(argument, others: others) ?? UsageError("unknown option \(Self.shown(argument, quoted: false))")
        }
        name = option.name
      }
      guard let option = option(named: name) else {
        throw notTaken("--" + name, others: others) ?? UsageError("unknown option --\(name)" + suggestion(for: name))
      }

      switch option.kind {
      case .flag:
        guard inlineValue == nil else { throw UsageError("--\(name) takes no value") }
        parsed.flags.insert(name)
      case .value, .repeatable:
        let value: String
        if let inlineValue {
          value = inlineValue
        } else {
          guard index < arguments.count else { throw UsageError("--\(name) needs a value") }
          value = arguments[index]
          index += 1
        }
        if case .value = option.kind, parsed.values[name] != nil {
          throw UsageError("--\(name) is given more than once")
        }
        parsed.values[name, default: []].append(value)
        parsed.valuesInOrder.append((name, value))
      }
    }
    if parsed[Self.help] { return parsed }
    try checkPositionals(parsed.positionals)
    return parsed
  }

  private func checkPositionals(_ given: [String]) throws(UsageError) {
    let required = positionals.filter { !$0.optional }.count
    let unbounded = positionals.contains { $0.variadic }
    if given.count < required {
      let missing = positionals.filter { !$0.optional }[given.count...].map { $0.name.uppercased() }
      throw UsageError("missing \(missing.joined(separator: " "))")
    }
    if !unbounded && given.count > positionals.count {
      throw UsageError("unexpected argument \(Self.shown(given[positionals.count]))")
    }
  }

  /// An argument quoted for an error message, unless it may be a secret pasted in the wrong
  /// place: long and not just digits (a tweet id) is described, not shown.
  package static func shown(_ argument: String, quoted: Bool = true) -> String {
    if argument.count <= 20 || argument.allSatisfy(\.isASCIIDigitCharacter) { return quoted ? "\"\(argument)\"" : argument }
    return "of \(argument.count) characters (not shown: it may be a secret)"
  }

  /// `tweets post does not take --limit: timeline, search and liked do`, when some of `others`
  /// take `option` (`--limit`, or a short `-o`), up to nine named (or five and the rest counted);
  /// `nil` when none does.
  func notTaken(_ option: String, others: [CommandSpec]) -> UsageError? {
    let takers = others.filter { other in
      other.options.contains { "--" + $0.name == option || $0.short.map { "-\($0)" } == option }
    }.map(\.subcommand)
    guard let last = takers.last else { return nil }
    let list =
      switch takers.count {
      case 1: "\(last) does"
      case 2...9: takers.dropLast().joined(separator: ", ") + " and \(last) do"
      default: takers.prefix(5).joined(separator: ", ") + " and \(takers.count - 5) other commands do"
      }
    return UsageError("\(name) does not take \(option): \(list)")
  }

  /// ` (did you mean --x?)` for a near miss, so a typo is quick to fix.
  private func suggestion(for name: String) -> String {
    let scored = options.map { (option: $0, distance: editDistance($0.name, name)) }
    guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= max(2, name.count / 3) else { return "" }
    return " (did you mean --\(best.option.name)?)"
  }
}

/// Levenshtein distance, for suggestions.
func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a), b = Array(b)
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var previous = Array(0...b.count)
  for i in 1...a.count {
    var current = [i] + Array(repeating: 0, count: b.count)
    for j in 1...b.count {
      current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.count]
}

extension Character {
  fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
