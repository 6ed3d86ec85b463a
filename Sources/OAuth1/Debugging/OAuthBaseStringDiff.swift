import PercentEncoding

/// Two signature base strings compared part by part: the one this side signed and the one a
/// provider says it computed (Flickr's `debug_sbs`, the `oauth_signature_base_string` of OAuth
/// Problem Reporting, ``OAuthVerificationError/signatureBaseString``).
///
/// A refused signature almost always comes from one difference in what was signed, and two
/// 300-character strings hide it well. The diff names it: the method, the scheme, the host, the
/// port, the path, or the parameter that is missing, extra, repeated or encoded differently.
///
/// ```swift
/// let diff = OAuthBaseStringDiff(
///   ours: "GET&https%3A%2F%2Fapi.example.com%2Fitems&a%3D1%26oauth_nonce%3Dn",
///   provider: "GET&http%3A%2F%2Fapi.example.com%2Fitems&a%3D1%26oauth_nonce%3Dn")
/// diff.first  // .scheme(ours: "https", provider: "http")
/// print(diff) // the two strings, with the first difference named
/// ```
public struct OAuthBaseStringDiff: Sendable, Hashable, CustomStringConvertible {
  /// One way the two base strings differ. Parameter names and values are shown as they appear
  /// in the base strings: percent-encoded.
  public enum Difference: Sendable, Hashable, CustomStringConvertible {
    /// The provider's string is not a base string (`METHOD&URI&PARAMETERS`), so no part can be compared.
    case unreadable(reason: String)
    /// The HTTP methods differ: the request was redirected, or sent with another method than signed.
    case method(ours: String, provider: String)
    /// The schemes differ: typically a proxy or load balancer ends TLS in front of the provider.
    case scheme(ours: String, provider: String)
    /// The hosts differ: a proxy, an alias, or a `Host` header other than the URL's.
    case host(ours: String, provider: String)
    /// The ports differ (`nil` is the scheme's default port, which a base string leaves out).
    case port(ours: Int?, provider: Int?)
    /// The paths differ: an encoded slash, a trailing slash, or a path prefix added by a proxy.
    case path(ours: String, provider: String)
    /// The same URI written differently (upper-case host or scheme, an explicit default port,
    /// another encoding), as a provider that does not normalize the base string URI writes it.
    case uri(ours: String, provider: String)
    /// The same parameters, joined differently: another order, or the whole string encoded
    /// another way (a provider that sorts decoded names, or encodes `=` and `&` inside values
    /// only once). Shown as the normalized parameter strings.
    case normalization(ours: String, provider: String)
    /// A parameter this side signed that the provider did not see or does not sign.
    case missing(name: String, value: String)
    /// A parameter the provider signed that this side did not: added on the way, or one the
    /// provider signs and the client did not (a form body sent as another content type).
    case extra(name: String, value: String)
    /// A parameter sent more often than the provider kept it: it drops repeated names.
    case duplicateDropped(name: String, value: String)
    /// The same parameter, the same decoded value, percent-encoded differently.
    case encodedDifferently(name: String, ours: String, provider: String)
    /// The same parameter with another value (a `+` read as a space, a value changed on the way).
    case value(name: String, ours: String, provider: String)

    /// The difference in one sentence.
    public var description: String {
      switch self {
      case .unreadable(let reason):
        return "the provider's base string cannot be read: \(reason)"
      case .method(let ours, let provider):
        return "the method: we signed \(ours), the provider \(provider) (a redirect that changed the method?)"
      case .scheme(let ours, let provider):
        return "the scheme: we signed \(ours), the provider \(provider) (TLS ended by a proxy in front of it? sign the URL it sees)"
      case .host(let ours, let provider):
        return "the host: we signed \(ours), the provider \(provider)"
      case .port(let ours, let provider):
        return "the port: we signed \(ours.map(String.init) ?? "the default"), the provider \(provider.map(String.init) ?? "the default")"
      case .path(let ours, let provider):
        return "the path: we signed \(ours), the provider \(provider)"
      case .uri(let ours, let provider):
        return "the base string URI's spelling: ours \(ours), the provider's \(provider) (it does not normalize case, ports or encoding)"
      case .normalization(let ours, let provider):
        return "the order or encoding of the normalized parameters: ours \(ours), the provider's \(provider)"
      case .missing(let name, let value):
        return "the parameter \(name)=\(value) is in ours but not in the provider's: it did not arrive, or the provider does not sign it"
      case .extra(let name, let value):
        return "the parameter \(name)=\(value) is in the provider's but not in ours: it was added on the way, or the provider signs what we did not"
      case .duplicateDropped(let name, let value):
        return "the parameter \(name)=\(value) was sent more than once and the provider kept it fewer times: it drops repeated names"
      case .encodedDifferently(let name, let ours, let provider):
        return "the parameter \(name) is encoded differently: ours \(ours), the provider's \(provider)"
      case .value(let name, let ours, let provider):
        return "the parameter \(name) has another value: ours \(ours), the provider's \(provider)"
      }
    }
  }

  /// The base string this side signed.
  public let ours: String
  /// The base string the provider computed.
  public let provider: String
  /// Every difference, in the order of the base string: method, scheme, host, port, path,
  /// then parameters by name. Empty when the strings are equal.
  public let differences: [Difference]

  /// The first difference, the one to fix first; `nil` when the strings are equal.
  public var first: Difference? { differences.first }

  /// Compares the base string signed here with the one the provider reports.
  public init(ours: String, provider: String) {
    self.ours = ours
    self.provider = provider
    differences = Self.compare(ours, provider)
  }

  private init(ours: String, provider: String, differences: [Difference]) {
    self.ours = ours
    self.provider = provider
    self.differences = differences
  }

  /// The same diff with the values of the parameters `isSensitive` names (by decoded name)
  /// replaced by `<redacted>`, in both strings and in the differences: to print it where a form
  /// value such as a password must not appear.
  ///
  /// ```swift
  /// print(diff.redacted { $0 == "password" })
  /// ```
  public func redacted(where isSensitive: (String) -> Bool) -> OAuthBaseStringDiff {
    let hidden = "<redacted>"
    func hide(_ name: String, _ value: String) -> String { isSensitive(PercentEncoding.decode(name) ?? name) ? hidden : value }
    func redact(_ baseString: String) -> String {
      let parts = baseString.split(separator: "&", omittingEmptySubsequences: false)
      guard parts.count == 3, let normalized = PercentEncoding.decode(parts[2]), !normalized.isEmpty else { return baseString }
      let pairs = normalized.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
        let name = String(pair.prefix { $0 != "=" })
        return pair.count > name.count ? name + "=" + hide(name, String(pair.dropFirst(name.count + 1))) : String(pair)
      }
      return parts[0] + "&" + parts[1] + "&" + PercentEncoding.encode(pairs.joined(separator: "&"))
    }
    let differences = differences.map { difference -> Difference in
      switch difference {
      case .missing(let name, let value): return .missing(name: name, value: hide(name, value))
      case .extra(let name, let value): return .extra(name: name, value: hide(name, value))
      case .duplicateDropped(let name, let value): return .duplicateDropped(name: name, value: hide(name, value))
      case .value(let name, let ours, let provider): return .value(name: name, ours: hide(name, ours), provider: hide(name, provider))
      case .encodedDifferently(let name, _, _):
        return isSensitive(PercentEncoding.decode(name) ?? name)
          ? .encodedDifferently(name: name, ours: name + "=" + hidden, provider: name + "=" + hidden) : difference
      case .normalization(let ours, let provider):
        func hideAll(_ text: String) -> String {
          text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let name = String(pair.prefix { $0 != "=" })
            return pair.count > name.count ? name + "=" + hide(name, String(pair.dropFirst(name.count + 1))) : String(pair)
          }.joined(separator: "&")
        }
        return .normalization(ours: hideAll(ours), provider: hideAll(provider))
      default: return difference
      }
    }
    return OAuthBaseStringDiff(ours: redact(ours), provider: redact(provider), differences: differences)
  }

  /// The first difference named, then both strings, one under the other.
  public var description: String {
    var lines: [String]
    if let first {
      lines = ["The provider's signature base string differs from ours in \(first)."]
      if differences.count > 1 {
        lines.append("Other differences: " + differences.dropFirst().map(\.description).joined(separator: "; ") + ".")
      }
    } else {
      lines = ["The provider's signature base string equals ours: the key differs (a secret, the signature method or the token)."]
    }
    lines += ["  ours:     \(ours)", "  provider: \(provider)"]
    return lines.joined(separator: "\n")
  }

  static func compare(_ ours: String, _ provider: String) -> [Difference] {
    guard ours != provider else { return [] }
    guard let theirs = Parts(provider) else {
      return [.unreadable(reason: "it is not METHOD&URI&PARAMETERS, percent-encoded")]
    }
    guard let mine = Parts(ours) else { return [.unreadable(reason: "ours is not a base string")] }
    var differences: [Difference] = []
    if mine.method != theirs.method { differences.append(.method(ours: mine.method, provider: theirs.method)) }
    if mine.scheme != theirs.scheme { differences.append(.scheme(ours: mine.scheme, provider: theirs.scheme)) }
    if mine.host != theirs.host { differences.append(.host(ours: mine.host, provider: theirs.host)) }
    if mine.port != theirs.port { differences.append(.port(ours: mine.port, provider: theirs.port)) }
    if mine.path != theirs.path { differences.append(.path(ours: mine.path, provider: theirs.path)) }
    differences += compareParameters(mine.parameters, theirs.parameters)
    if differences.isEmpty {
      // Equal once parsed, so written differently: the URI, or the parameters' string.
      let mineWritten = ours.split(separator: "&", omittingEmptySubsequences: false)
      let theirsWritten = provider.split(separator: "&", omittingEmptySubsequences: false)
      func decoded(_ part: Substring) -> String { PercentEncoding.decode(part) ?? String(part) }
      if mineWritten[1] != theirsWritten[1] {
        differences.append(.uri(ours: decoded(mineWritten[1]), provider: decoded(theirsWritten[1])))
      }
      if mineWritten[2] != theirsWritten[2] {
        differences.append(.normalization(ours: decoded(mineWritten[2]), provider: decoded(theirsWritten[2])))
      }
    }
    return differences
  }

  /// Pairs the parameters by decoded name; within a name, exact matches cancel out and what
  /// is left is named by what it most likely is.
  static func compareParameters(_ ours: [Parameter], _ theirs: [Parameter]) -> [Difference] {
    var names: [String] = []
    var byName: [String: (ours: [Parameter], theirs: [Parameter])] = [:]
    for parameter in ours {
      if byName[parameter.decodedName] == nil { names.append(parameter.decodedName) }
      byName[parameter.decodedName, default: ([], [])].ours.append(parameter)
    }
    for parameter in theirs {
      if byName[parameter.decodedName] == nil { names.append(parameter.decodedName) }
      byName[parameter.decodedName, default: ([], [])].theirs.append(parameter)
    }
    var differences: [Difference] = []
    for name in names.sorted() {
      var (mine, provider) = byName[name]!
      let sentMore = mine.count > provider.count
      for parameter in mine {
        if let match = provider.firstIndex(where: { $0.text == parameter.text }) {
          provider.remove(at: match)
          mine.remove(at: mine.firstIndex(of: parameter)!)
        }
      }
      while let parameter = mine.first {
        mine.removeFirst()
        if let same = provider.firstIndex(where: { $0.decodedValue == parameter.decodedValue }) {
          let other = provider.remove(at: same)
          differences.append(.encodedDifferently(name: parameter.name, ours: parameter.text, provider: other.text))
        } else if sentMore && !byName[name]!.theirs.isEmpty && provider.isEmpty {
          differences.append(.duplicateDropped(name: parameter.name, value: parameter.value))
        } else if !provider.isEmpty {
          let other = provider.removeFirst()
          differences.append(.value(name: parameter.name, ours: parameter.value, provider: other.value))
        } else {
          differences.append(.missing(name: parameter.name, value: parameter.value))
        }
      }
      differences += provider.map { .extra(name: $0.name, value: $0.value) }
    }
    return differences
  }

  /// One normalized parameter as it appears in a base string: `name=value`, percent-encoded.
  struct Parameter: Hashable {
    let name: String
    let value: String
    var text: String { name + "=" + value }
    var decodedName: String { PercentEncoding.decode(name) ?? name }
    var decodedValue: String { PercentEncoding.decode(value) ?? value }
  }

  /// A base string taken apart.
  struct Parts {
    var method: String
    var scheme: String
    var host: String
    var port: Int?
    var path: String
    var parameters: [Parameter]

    init?(_ text: String) {
      let parts = text.split(separator: "&", omittingEmptySubsequences: false)
      guard parts.count == 3, !parts[0].isEmpty, let uri = PercentEncoding.decode(parts[1]),
        let normalized = PercentEncoding.decode(parts[2]), let components = try? OAuthURLComponents(uri)
      else { return nil }
      method = String(parts[0])
      // An explicit default port is a spelling, not another port.
      let port = components.port == components.defaultPort ? nil : components.port
      (scheme, host, self.port, path) = (components.scheme, components.host, port, components.path)
      parameters =
        normalized.isEmpty
        ? []
        : normalized.split(separator: "&", omittingEmptySubsequences: false).map { pair in
          let name = pair.prefix { $0 != "=" }
          return Parameter(name: String(name), value: String(pair.dropFirst(name.count + 1)))
        }
    }
  }
}
