/// How an option's argument becomes its value, what a bad one is told, and how a value is shown
/// in the help (its default). A bad value's error names the option and what it takes:
/// `--limit takes a whole number from 1 to 1000000, not "ten"`.
///
/// ```swift
/// let port = ArgumentConversion<UInt16>(expecting: "a port number") { UInt16($0) }
/// ```
package struct ArgumentConversion<Value: Sendable>: Sendable {
  private let parse: @Sendable (String) -> Value?
  private let failure: @Sendable (_ option: String, _ text: String) -> String
  /// How the help shows a value (a default).
  let shown: @Sendable (Value) -> String

  /// A conversion whose error says `--NAME takes EXPECTING, not "TEXT"`.
  package init(
    expecting: String, shown: @escaping @Sendable (Value) -> String = { "\($0)" }, _ parse: @escaping @Sendable (String) -> Value?
  ) {
    self.init(failure: { option, text in "--\(option) takes \(expecting), not \"\(text)\"" }, shown: shown, parse)
  }

  /// A conversion whose error is `failure(name, text)`, for an option whose message is worded
  /// otherwise (one that must not repeat a secret, say).
  package init(
    failure: @escaping @Sendable (_ option: String, _ text: String) -> String, shown: @escaping @Sendable (Value) -> String = { "\($0)" },
    _ parse: @escaping @Sendable (String) -> Value?
  ) {
    self.parse = parse
    self.failure = failure
    self.shown = shown
  }

  /// The value of `text`, given to the option `option` (its long name).
  func convert(_ text: String, option: String) throws(UsageError) -> Value {
    guard let value = parse(text) else { throw UsageError(failure(option, text)) }
    return value
  }
}

extension ArgumentConversion where Value == String {
  /// The argument as given.
  package static var string: Self { Self(expecting: "a value") { $0 } }
}

extension ArgumentConversion where Value == Int {
  /// A whole number in `range`: `--limit takes a whole number from 1 to 100, not "ten"`.
  package static func integer(in range: ClosedRange<Int> = Int.min...Int.max) -> Self {
    Self(expecting: "a whole number" + wholeNumberBounds(Int64(range.lowerBound), Int64(range.upperBound))) { text in
      Int(text).flatMap { range.contains($0) ? $0 : nil }
    }
  }
}

extension ArgumentConversion where Value: RawRepresentable, Value.RawValue == String {
  /// One of `Value`'s raw values, shown as its raw value.
  package static func choice(expecting: String) -> Self {
    Self(expecting: expecting, shown: \.rawValue) { Value(rawValue: $0) }
  }
}

/// ` from 1 to 100`, ` of at least 0` or nothing, for a whole number's error.
func wholeNumberBounds(_ lower: Int64, _ upper: Int64) -> String {
  switch (lower, upper) {
  case (Int64.min, Int64.max): ""
  case (let lower, Int64.max): " of at least \(lower)"
  case (let lower, let upper): " from \(lower) to \(upper)"
  }
}
