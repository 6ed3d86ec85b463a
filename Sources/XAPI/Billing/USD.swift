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

  /// Whole cents (`USD.cents(1)` is $0.01), saturating.
  public static func cents(_ cents: Int64) -> USD { USD(micros: 10_000) * Int(cents) }

  /// The largest amount read from text (``init(_:)``): a limit (`--max-cost`, `tweets budget`),
  /// a price in a price file, a sandbox's credits. One billion dollars, far past anything X's
  /// pay-per-use sells (its monthly cap, 3 million post reads, is $15,000), and far below
  /// what millionths in an `Int64` hold (about $9.2 trillion), so that sums of such amounts
  /// and a run's charges stay exact.
  public static let maximum = USD(micros: 1_000_000_000 * 1_000_000)

  /// The largest amount the type holds: where arithmetic that would overflow stops.
  public static let saturated = USD(micros: .max)

  /// Reads a decimal amount as a user or a price file writes it: `0.5`, `0.005`, `$12`,
  /// `1,000.00`. `nil` for anything else: a negative amount, an exponent, more than six
  /// decimals (finer than a millionth), or one past ``maximum`` (see ``isAmount(_:)``
  /// to tell that case apart in a message).
  public init?(_ text: some StringProtocol) {
    guard let micros = Self.micros(text), micros <= Self.maximum.micros else { return nil }
    self.micros = micros
  }

  /// Whether `text` is an amount as ``init(_:)`` reads it, whatever its size: `false` for
  /// `1e9` or `-5`, `true` for `5000000000` (which ``init(_:)`` refuses as past ``maximum``).
  /// Lets a message say "at most $1,000,000,000" only where that is what is wrong.
  public static func isAmount(_ text: some StringProtocol) -> Bool { micros(text) != nil }

  /// The millionths `text` writes, or `nil` when it is no amount; one too large for an `Int64`
  /// is `Int64.max` (past ``maximum`` all the same), never a trap.
  private static func micros(_ text: some StringProtocol) -> Int64? {
    var digits = Substring(text.filter { $0 != "," })
    if digits.first == "$" { digits = digits.dropFirst() }
    let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard let whole = parts.first, !(whole.isEmpty && parts.count == 1), whole.allSatisfy(\.isASCIIDigit) else { return nil }
    let fraction = parts.count == 2 ? parts[1] : ""
    guard fraction.count <= 6, fraction.allSatisfy(\.isASCIIDigit), !(whole.isEmpty && fraction.isEmpty) else { return nil }
    let significant = whole.drop { $0 == "0" }
    // 13 digits of dollars are more than 10^12, past any maximum: no need to read them.
    guard significant.count <= 12 else { return .max }
    let wholeValue = Int64(significant) ?? 0
    let fractionValue = Int64(fraction + String(repeating: "0", count: 6 - fraction.count)) ?? 0
    return wholeValue * 1_000_000 + fractionValue
  }

  /// `$0.50`, `$0.005`, `$12.00`: at least two decimals, more where the amount has them.
  /// ``saturated`` (where arithmetic stopped rather than overflow) reads
  /// `more than $9223372036854.775806`: it stands for any amount that large or larger.
  public var description: String {
    micros == .max ? "more than $" + USD(micros: .max - 1).digits : (micros < 0 ? "-$" : "$") + digits
  }

  /// The amount as a plain decimal (`0.005`), as price files and JSON output write it.
  public var decimal: String { (micros < 0 ? "-" : "") + digits }

  /// The magnitude's digits, `0.50`.
  private var digits: String {
    let magnitude = micros.magnitude
    var fraction = String(magnitude % 1_000_000)
    fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
    while fraction.count > 2 && fraction.last == "0" { fraction.removeLast() }
    return "\(magnitude / 1_000_000).\(fraction)"
  }

  /// Whether `lhs` is less than `rhs`.
  public static func < (lhs: USD, rhs: USD) -> Bool { lhs.micros < rhs.micros }
  // Arithmetic saturates at the bounds of `Int64` rather than trapping: a count a server sends
  // (`Int.max` posts match) times a price must print "more than you have", not crash the run;
  // a saturated amount is past every limit, so a budget still refuses it.

  /// The sum, saturating.
  public static func + (lhs: USD, rhs: USD) -> USD { USD(micros: saturating(lhs.micros.addingReportingOverflow(rhs.micros), lhs.micros, rhs.micros)) }
  /// The difference, saturating.
  public static func - (lhs: USD, rhs: USD) -> USD {
    let (value, overflow) = lhs.micros.subtractingReportingOverflow(rhs.micros)
    return USD(micros: overflow ? (rhs.micros < 0 ? .max : .min) : value)
  }
  /// `count` times the amount (a price times the resources bought), saturating.
  public static func * (lhs: USD, count: Int) -> USD {
    let (value, overflow) = lhs.micros.multipliedReportingOverflow(by: Int64(clamping: count))
    return USD(micros: overflow ? ((lhs.micros < 0) == (count < 0) ? .max : .min) : value)
  }
  /// Adds `rhs`, saturating.
  public static func += (lhs: inout USD, rhs: USD) { lhs = lhs + rhs }
  /// Subtracts `rhs`, saturating.
  public static func -= (lhs: inout USD, rhs: USD) { lhs = lhs - rhs }

  private static func saturating(_ result: (partialValue: Int64, overflow: Bool), _ lhs: Int64, _ rhs: Int64) -> Int64 {
    result.overflow ? (lhs < 0 && rhs < 0 ? .min : .max) : result.partialValue
  }

  /// Decodes `"0.005"` (a string, exact) or `0.005` (a JSON number, read through its shortest
  /// decimal form).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text: String
    if let string = try? container.decode(String.self) { text = string } else { text = "\(try container.decode(Double.self))" }
    guard let amount = USD(text) else {
      throw DecodingError.dataCorruptedError(
        in: container,
        debugDescription: USD.isAmount(text)
          ? "\(text) is more than the largest amount read, \(USD.maximum)"
          : "not an amount in dollars: \(text) (write it as \"0.005\")")
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
