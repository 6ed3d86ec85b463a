/// Writes `Authorization: OAuth ...` from encoded pairs, once: the signer's header and
/// ``OAuthAuthorizationHeader/make(parameters:realm:)``'s.
enum AuthorizationHeaderWriter {
  /// `OAuth realm="…", name="value", …` with the pairs of `range`, in order.
  static func make(quotedRealm: String?, _ range: Range<Int>, _ bytes: borrowing ByteWriter, _ pairs: borrowing ScratchArena.List<EncodedPair>)
    -> String
  {
    ScratchArena.string { out in
      out.append("OAuth ")
      if let realm = quotedRealm {
        out.append("realm=\"")
        out.append(contentsOf: realm)
        out.append(range.isEmpty ? "\"" : "\", ")
      }
      for index in range {
        if index > range.lowerBound { out.append(", ") }
        let pair = pairs[index]
        out.append(bytes, pair.name)
        out.append("=\"")
        out.append(bytes, pair.value)
        out.append(UInt8(ascii: "\""))
      }
    }
  }
}
