/// Rewrites an IPv6 literal in the form RFC 5952 recommends (lowercase, no leading zeros,
/// the longest run of zero groups as `::`), so that `[2001:0DB8::0001]` and `[2001:db8::1]`
/// sign alike.
enum IPv6Address {
  static func canonical(_ literal: Substring, url: String) throws(OAuthError) -> String {
    // A zone ("%25eth0") or an embedded IPv4 tail is kept as written, lowercased.
    if literal.contains("%") || literal.contains(".") { return literal.lowercased() }
    let invalid = OAuthError.malformedURL(url: url, reason: "\"[\(literal)]\" is not an IPv6 address")

    let halves = literal.split(separator: "::", maxSplits: 1, omittingEmptySubsequences: false)
    guard halves.count <= 2, !(halves.count == 1 && literal.contains("::")) else { throw invalid }
    func groups(_ part: Substring) throws(OAuthError) -> [UInt16] {
      if part.isEmpty { return [] }
      var result: [UInt16] = []
      for group in part.split(separator: ":", omittingEmptySubsequences: false) {
        guard (1...4).contains(group.count), let value = UInt16(group, radix: 16) else { throw invalid }
        result.append(value)
      }
      return result
    }
    let head = try groups(halves[0])
    let tail = halves.count == 2 ? try groups(halves[1]) : []
    var all: [UInt16]
    if halves.count == 2 {
      guard head.count + tail.count < 8 else { throw invalid }
      all = head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
    } else {
      guard head.count == 8 else { throw invalid }
      all = head
    }

    // The longest run of two or more zero groups (the first on a tie) becomes "::".
    var best = (start: -1, length: 0)
    var index = 0
    while index < 8 {
      if all[index] == 0 {
        var end = index
        while end < 8 && all[end] == 0 { end += 1 }
        if end - index > best.length { best = (index, end - index) }
        index = end
      } else {
        index += 1
      }
    }
    let hex = { (groups: ArraySlice<UInt16>) in groups.map { String($0, radix: 16) }.joined(separator: ":") }
    guard best.length >= 2 else { return hex(all[...]) }
    return hex(all[..<best.start]) + "::" + hex(all[(best.start + best.length)...])
  }
}
