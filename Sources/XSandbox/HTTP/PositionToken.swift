/// The `pagination_token`s of pages by position: liked, quote and list tweets (`7140dibo` and
/// the offset in base 36), followers and following (16 base-32 characters, as X's look).
enum PositionToken {
  case tweets, users

  static let tweetsPrefix = "7140dibo"
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
  private static let mask: UInt64 = 0x5F37_59DF_2A1B_3C4D
  /// The largest offset a token may carry, far beyond any list of the sandbox.
  private static let largest = 10_000_000

  /// The token of the page that starts at `offset`.
  func encode(_ offset: Int) -> String {
    switch self {
    case .tweets:
      return Self.tweetsPrefix + String(offset, radix: 36)
    case .users:
      // 64 bits in 13 characters of 5 bits (the last one has 4 and a zero), then padding.
      let value = UInt64(max(0, offset)) ^ Self.mask
      var out = ""
      for group in 0..<13 {
        let digit = group < 12 ? (value >> UInt64(59 - 5 * group)) & 31 : (value << 1) & 31
        out.append(Self.alphabet[Int(digit)])
      }
      return out + "ZZZ"
    }
  }

  /// The offset of a token this sandbox issued, or `nil`.
  func decode(_ token: String) -> Int? {
    switch self {
    case .tweets:
      guard token.hasPrefix(Self.tweetsPrefix), let offset = Int(token.dropFirst(Self.tweetsPrefix.count), radix: 36),
        offset > 0, offset <= Self.largest
      else { return nil }
      return offset
    case .users:
      let characters = Array(token)
      guard characters.count == 16, token.hasSuffix("ZZZ") else { return nil }
      var value: UInt64 = 0
      for (group, character) in characters.prefix(13).enumerated() {
        guard let digit = Self.alphabet.firstIndex(of: character) else { return nil }
        value = group < 12 ? value << 5 | UInt64(digit) : value << 4 | UInt64(digit >> 1)
      }
      let offset = value ^ Self.mask
      return offset <= UInt64(Self.largest) ? Int(offset) : nil
    }
  }
}
