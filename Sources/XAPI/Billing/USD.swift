/// An amount of US dollars, held exactly in millionths of a dollar: X's prices go down to a
/// tenth of a cent ($0.001 an owned read), and a budget must add them without the drift of
/// binary floating point.
///
/// ```swift
/// let budget = USD("0.50")!          // from --max-cost 0.50
/// let page = USD.cents(1) * 50       // 50 posts at half a cent: $0.50
/// page <= budget                     // true
/// print(USD("0.005")!)               // $0.005
/// ```
public struct USD: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  /// The amount in millionths of a dollar.
  public var micros: Int64

  /// An amount from millionths of a dollar.
  public init(micros: Int64) { self.micros = micros }

  /// Nothing.
  public static let zero = USD(micros: 0)

  /// Whole cents (`USD.cents(1)` is $0.01).
  public static func cents(_ cents: Int64) -> USD { USD(micros: cents * 10_000) }

  /// Reads a decimal amount as a user or a price file writes it: `0.5`, `0.005`, `$12`,
  /// `1,000.00`. `nil` for anything else: a negative amount, an exponent, more than six
  /// decimals (finer than a millionth), or one past $9 trillion.
  public init?(_ text: some StringProtocol) {
    var digits = Substring(text.filter { $0 != "," })
    if digits.first == "$" { digits = digits.dropFirst() }
    let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard let whole = parts.first, !(whole.isEmpty && parts.count == 1), whole.count <= 13,
      whole.allSatisfy(\.isASCIIDigit)
    else { return nil }
    let fraction = parts.count == 2 ? parts[1] : ""
    guard fraction.count <= 6, fraction.allSatisfy(\.isASCIIDigit), !(whole.isEmpty && fraction.isEmpty) else { return nil }
    let wholeValue = Int64(whole) ?? 0
    let fractionValue = Int64(fraction + String(repeating: "0", count: 6 - fraction.count)) ?? 0
    micros = wholeValue * 1_000_000 + fractionValue
  }

  /// `$0.50`, `$0.005`, `$12.00`: at least two decimals, more where the amount has them.
  public var description: String {
    let sign = micros < 0 ? "-" : ""
    let magnitude = micros.magnitude
    var fraction = String(magnitude % 1_000_000)
    fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
    while fraction.count > 2 && fraction.last == "0" { fraction.removeLast() }
    return "\(sign)$\(magnitude / 1_000_000).\(fraction)"
  }

  /// The amount as a plain decimal (`0.005`), as price files and JSON output write it.
  public var decimal: String { String(description.drop { $0 == "-" || $0 == "$" }).withSign(micros < 0) }

  /// Whether `lhs` is less than `rhs`.
  public static func < (lhs: USD, rhs: USD) -> Bool { lhs.micros < rhs.micros }
  /// The sum.
  public static func + (lhs: USD, rhs: USD) -> USD { USD(micros: lhs.micros + rhs.micros) }
  /// The difference.
  public static func - (lhs: USD, rhs: USD) -> USD { USD(micros: lhs.micros - rhs.micros) }
  /// `count` times the amount (a price times the resources bought).
  public static func * (lhs: USD, count: Int) -> USD { USD(micros: lhs.micros * Int64(count)) }
  /// Adds `rhs`.
  public static func += (lhs: inout USD, rhs: USD) { lhs.micros += rhs.micros }
  /// Subtracts `rhs`.
  public static func -= (lhs: inout USD, rhs: USD) { lhs.micros -= rhs.micros }

  /// Decodes `"0.005"` (a string, exact) or `0.005` (a JSON number, read through its shortest
  /// decimal form).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text: String
    if let string = try? container.decode(String.self) { text = string } else { text = "\(try container.decode(Double.self))" }
    guard let amount = USD(text) else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an amount in dollars: \(text) (write it as \"0.005\")")
    }
    self = amount
  }

  /// Encodes as a decimal string, exact.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(decimal)
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension String {
  fileprivate func withSign(_ negative: Bool) -> String { negative ? "-" + self : self }
}
