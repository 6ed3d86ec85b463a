import PercentEncoding

/// The `Authorization: OAuth ...` header (RFC 5849, section 3.5.1), the default and
/// recommended way to send the protocol parameters.
///
/// `realm`, when present, comes first, as an HTTP quoted-string (RFC 2617); then every
/// `oauth_*` parameter as `enc(name)="enc(value)"`, in the given order, separated by `", "`.
///
/// ```swift
/// OAuthAuthorizationHeader.make(
///   parameters: [OAuthParameter("oauth_consumer_key", "key"), OAuthParameter("oauth_signature", "a+b=")],
///   realm: "Example")
/// // OAuth realm="Example", oauth_consumer_key="key", oauth_signature="a%2Bb%3D"
/// ```
public enum OAuthAuthorizationHeader {
  /// Builds the header value.
  public static func make(parameters: [OAuthParameter], realm: String? = nil) -> String {
    // Encoded into one buffer, then written by the signer's own writer.
    let room = parameters.reduce(0) { $0 + 3 * ($1.name.utf8.count + $1.value.utf8.count) }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(room, 1)) { storage in
      withUnsafeTemporaryAllocation(of: EncodedPair.self, capacity: max(parameters.count, 1)) { pairs in
        var out = ByteWriter(storage.baseAddress!, capacity: room)
        for (index, parameter) in parameters.enumerated() {
          var name = parameter.name, value = parameter.value
          let start = out.count
          name.withUTF8 { out.appendEncoded($0) }
          let nameEnd = out.count
          value.withUTF8 { out.appendEncoded($0) }
          pairs[index] = EncodedPair(
            name: UnsafeBufferPointer(rebasing: out.written[start..<nameEnd]), value: UnsafeBufferPointer(rebasing: out.written[nameEnd...]))
        }
        return make(quotedRealm: realm.map(quote), pairs: UnsafeBufferPointer(rebasing: pairs[..<parameters.count]))
      }
    }
  }

  /// The writer the signer uses: `OAuth realm="…", name="value", …` from encoded pairs.
  static func make(quotedRealm: String?, pairs: UnsafeBufferPointer<EncodedPair>) -> String {
    var length = 6 + (quotedRealm.map { $0.utf8.count + 10 } ?? 0)
    for pair in pairs { length += pair.name.count + pair.value.count + 5 }
    return ByteWriter.string(capacity: length) { out in
      out.append("OAuth ")
      if var realm = quotedRealm {
        out.append("realm=\"")
        realm.withUTF8 { out.append($0) }
        out.append(pairs.isEmpty ? "\"" : "\", ")
      }
      for (index, pair) in pairs.enumerated() {
        if index > 0 { out.append(", ") }
        out.append(pair.name)
        out.append("=\"")
        out.append(pair.value)
        out.append(UInt8(ascii: "\""))
      }
    }
  }

  /// The content of a quoted-string: `"` and `\` are escaped with `\`; control characters,
  /// which a header may not carry (a CR or LF would start a new header), are
  /// percent-encoded.
  static func quote(_ realm: String) -> String {
    var quoted = ""
    for scalar in realm.unicodeScalars {
      switch scalar {
      case "\"", "\\":
        quoted.unicodeScalars.append("\\")
        quoted.unicodeScalars.append(scalar)
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        quoted += PercentEncoding.encode(String(scalar))
      default:
        quoted.unicodeScalars.append(scalar)
      }
    }
    return quoted
  }
}
