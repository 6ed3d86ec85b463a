import Foundation
import PercentEncoding

/// Finds the protocol parameters of a received request in the one place they were sent:
/// the Authorization header, the query or the form body (RFC 5849, section 3.5).
///
/// Read on bytes: Strings are made only of the `oauth_*` values, and the header's parameters
/// are kept canonically encoded for the base string, as the signer keeps its own.
struct ProtocolParameters {
  /// Every `oauth_*` value by name, `oauth_signature` included.
  var values = Values()
  /// The header's realm.
  var realm: String?
  /// The header's signed fields (all but `realm` and `oauth_signature`) as received: they
  /// are re-encoded strictly with the query and form body when the base string is built.
  var headerPairs = RawHeaderPairs()

  typealias Name = ProtocolParameterName

  /// The `oauth_*` values of one request, a slot per known name (no hashing, no searching).
  struct Values {
    private var slots = [String?](repeating: nil, count: Name.allCases.count)
    /// The known names seen (a bit per name), and the other `oauth_*` names: for the checks
    /// and the error reports, without a String per name.
    private var seen: UInt16 = 0
    /// The other `oauth_*` names in the order first seen, and the same as a set: a repeat is
    /// found by one hash lookup, not by comparing with every earlier name.
    private var otherNames: [String] = []
    private var otherSet: Set<String> = []
    /// The names sent more than once, each once.
    private(set) var duplicates: [String] = []
    private var duplicateSet: Set<String> = []

    /// Every `oauth_*` name seen, once each.
    var names: [String] {
      Name.allCases.filter { seen & (1 << $0.rawValue) != 0 }.map(\.text) + otherNames
    }
    var isEmpty: Bool { seen == 0 && otherNames.isEmpty }

    subscript(name: Name) -> String? { slots[name.rawValue] }

    mutating func add(_ name: Name, value: String) {
      let bit: UInt16 = 1 << name.rawValue
      if seen & bit != 0 && duplicateSet.insert(name.text).inserted { duplicates.append(name.text) }
      seen |= bit
      slots[name.rawValue] = value
    }

    /// An `oauth_*` name this verifier does not know: signed, and checked for repeats.
    mutating func add(other name: String) {
      if otherSet.insert(name).inserted {
        otherNames.append(name)
      } else if duplicateSet.insert(name).inserted {
        duplicates.append(name)
      }
    }
  }

  /// The ``OAuthVerifier/Limits`` a request is read under, and what was read so far against them.
  private struct Budget {
    let limits: OAuthVerifier.Limits
    var parameters = 0
    var protocolParameters = 0
    /// Why reading stopped, when a limit did.
    var refusal: OAuthVerificationError?

    /// Counts one parameter read from `source`; `false`, with ``refusal`` set, past the limit.
    /// Inlined into the readers' loops: an addition and a comparison per parameter.
    @inline(__always)
    mutating func count(_ source: OAuthParameterSource) -> Bool {
      parameters &+= 1
      if parameters <= limits.maximumParameters { return true }
      refuseParameters(source)
      return false
    }

    /// Counts one `oauth_*` parameter; `false`, with ``refusal`` set, past the limit.
    @inline(__always)
    mutating func countProtocol() -> Bool {
      protocolParameters &+= 1
      if protocolParameters <= limits.maximumProtocolParameters { return true }
      refuseProtocolParameters()
      return false
    }

    @inline(never)
    private mutating func refuseParameters(_ source: OAuthParameterSource) {
      refusal = OAuthVerificationError(
        .parameterRejected,
        advice:
          "the request has more than \(limits.maximumParameters) parameters (the query's, the form body's and the Authorization header's together); this verifier reads no more (OAuthVerifier.Limits.maximumParameters)",
        httpStatus: Self.status(source))
    }

    @inline(never)
    private mutating func refuseProtocolParameters() {
      refusal = OAuthVerificationError(
        .parameterRejected,
        advice:
          "the request has more than \(limits.maximumProtocolParameters) oauth_* parameters; OAuth 1.0a and its body hash define ten, and this verifier reads no more (OAuthVerifier.Limits.maximumProtocolParameters)",
        httpStatus: 400)
    }

    /// The status an HTTP server gives a request whose `source` is too large.
    static func status(_ source: OAuthParameterSource) -> Int {
      switch source {
      case .authorizationHeader: return 431
      case .query: return 414
      default: return 413
      }
    }

    /// Refuses a part of `bytes` bytes over `limit` before it is read.
    static func checkSize(_ bytes: Int, limit: Int, of part: String, _ source: OAuthParameterSource, setting: String) throws(OAuthVerificationError) {
      guard bytes > limit else { return }
      throw OAuthVerificationError(
        .parameterRejected,
        advice: "the \(part) has \(bytes) bytes; this verifier reads at most \(limit) (OAuthVerifier.Limits.\(setting)): send less",
        httpStatus: status(source))
    }
  }

  /// What stops a scan: the refusal is in the ``Budget``.
  private static let stop = OAuthError.requestTooLarge(bytes: 0, limit: 0)

  /// Reads the protocol parameters of `request` under `limits`: each size is checked before its
  /// part is read, each count as it is passed, so no request is read past them. Linear in the
  /// request: a name is checked for repeats by one hash lookup.
  static func locate(
    request: OAuthRequest, authorization: String?, limits: OAuthVerifier.Limits
  ) throws(OAuthVerificationError) -> ProtocolParameters {
    var located = ProtocolParameters()
    var budget = Budget(limits: limits)
    var sources: [OAuthParameterSource] = []
    let form = request.formBody
    let urlBytes = request.url.utf8.count, formBytes = form?.count ?? 0
    try Budget.checkSize(urlBytes, limit: limits.maximumURLBytes, of: "URL", .query, setting: "maximumURLBytes")
    if form != nil {
      try Budget.checkSize(formBytes, limit: limits.maximumFormBodyBytes, of: "form body", .formBody, setting: "maximumFormBodyBytes")
    }
    do {
      if let authorization {
        let headerBytes = authorization.utf8.count
        // A header of another scheme is not read, whatever its size: the scheme is looked at
        // before the size refuses one.
        if headerBytes > limits.maximumAuthorizationHeaderBytes && isOAuthScheme(authorization) {
          try Budget.checkSize(
            headerBytes, limit: limits.maximumAuthorizationHeaderBytes, of: "Authorization header", .authorizationHeader,
            setting: "maximumAuthorizationHeaderBytes")
        }
        // A third of the engine's limit: the base string takes the header's fields three times.
        guard headerBytes <= CanonicalParameters.maximumRawBytes / 3 else {
          throw OAuthError.requestTooLarge(bytes: headerBytes, limit: CanonicalParameters.maximumRawBytes / 3)
        }
        // The header, then its values with their quoted-pairs unescaped; and a scratch to decode a field.
        try ScratchArena.withBytes { bytes throws(OAuthVerificationError) in
          try ScratchArena.withBytes { decoded throws(OAuthVerificationError) in
            let header = bytes.append(contentsOf: authorization)
            if isOAuthScheme(header, bytes) {
              try located.readHeader(header, &bytes, &decoded, &budget)
              if !located.values.isEmpty { sources.append(.authorizationHeader) }
            }
          }
        }
      }
      try CanonicalParameters.checkSize(urlBytes + formBytes)
      // The URL and the form body, and a scratch to decode a pair.
      try ScratchArena.withBytes { bytes throws(OAuthError) in
        try ScratchArena.withBytes { decoded throws(OAuthError) in
          // Only the query is needed here; the URL itself is checked when the base string is built.
          let url = bytes.append(contentsOf: request.url)
          if let questionMark = bytes.firstIndex(of: UInt8(ascii: "?"), in: url) {
            let end = bytes.firstIndex(of: UInt8(ascii: "#"), in: (questionMark + 1)..<url.upperBound) ?? url.upperBound
            if try located.readForm((questionMark + 1)..<end, .query, bytes, &decoded, &budget) { sources.append(.query) }
          }
          if let body = bytes.append(contentsOf: form), try located.readForm(body, .formBody, bytes, &decoded, &budget) {
            sources.append(.formBody)
          }
        }
      }
    } catch let error as OAuthVerificationError {
      throw error
    } catch {
      if let refusal = budget.refusal { throw refusal }
      if case OAuthError.requestTooLarge = error {
        throw OAuthVerificationError(.parameterRejected, advice: "the request cannot be verified: \(error)", httpStatus: 413)
      }
      throw OAuthVerificationError(.parameterRejected, advice: "the request cannot be verified: \(error)")
    }

    let duplicates = located.values.duplicates
    if !duplicates.isEmpty {
      throw OAuthVerificationError(
        .parameterRejected, advice: "protocol parameters appear more than once: \(listed(duplicates))", parameters: reported(duplicates))
    }
    if sources.count > 1 {
      throw OAuthVerificationError(
        .parameterRejected,
        advice: "protocol parameters must be sent in one place, not in \(sources.map(\.description).sorted().joined(separator: " and "))",
        parameters: reported(Array(Set(located.values.names)).sorted()))
    }
    return located
  }

  /// At most how many names an error lists: the advice and `oauth_parameters_rejected` of a
  /// request with thousands of bad names stay short.
  static let namesListed = 16

  /// `names` for an advice: the first ``namesListed``, and how many more.
  static func listed(_ names: [String]) -> String {
    let shown = names.prefix(namesListed).joined(separator: ", ")
    return names.count > namesListed ? "\(shown) and \(names.count - namesListed) more" : shown
  }

  /// `names` for an error's `parameters`: the first ``namesListed``.
  static func reported(_ names: [String]) -> [String] { Array(names.prefix(namesListed)) }

  /// Reads the header's fields: `realm`, and `oauth_*` parameters only. `decoded` is the
  /// scratch a field with escapes is decoded into.
  private mutating func readHeader(
    _ header: Range<Int>, _ bytes: inout ByteWriter, _ decoded: inout ByteWriter, _ budget: inout Budget
  ) throws(OAuthVerificationError) {
    // The first foreign names, for the error, and how many there were.
    var foreign: [String] = []
    var foreignCount = 0
    var bounds: [Int32] = []
    do {
      try AuthorizationHeaderScanner.scan(header, in: &bytes) { rawName, rawValue, bytes throws(OAuthError) in
        guard budget.count(.authorizationHeader) else { throw ProtocolParameters.stop }
        if bytes.elementsEqual(rawName, "realm") {
          realm = bytes.string(rawValue)
          return
        }
        func invalid() -> OAuthError { .invalidParameterEncoding(source: .authorizationHeader, parameter: bytes.string(rawName)) }
        // Compared on bytes: as Characters, "_" and a combining mark after it are one. A name
        // with an escape is decoded first (rare).
        let known: Name?
        var nameText: String?
        if bytes.firstIndex(of: UInt8(ascii: "%"), in: rawName) == nil {
          guard bytes.hasPrefix(rawName, "oauth_") else {
            foreignCount += 1
            if foreign.count < Self.namesListed { foreign.append(bytes.string(rawName)) }
            return
          }
          known = Name(bytes, rawName)
          if known == nil { nameText = bytes.validString(rawName) }
        } else {
          decoded.truncate(to: 0)
          let name = decoded.appendPercentDecoded(bytes, rawName, plusAsSpace: false)
          guard decoded.hasPrefix(name, "oauth_") else {
            foreignCount += 1
            if foreign.count < Self.namesListed { foreign.append(decoded.string(name)) }
            return
          }
          known = Name(decoded, name)
          if known == nil { nameText = decoded.validString(name) }
        }
        guard budget.countProtocol() else { throw ProtocolParameters.stop }
        // Strings only for what is kept: a known name's value, an unknown name itself.
        let valueText: String?
        if bytes.firstIndex(of: UInt8(ascii: "%"), in: rawValue) == nil {
          valueText = bytes.validString(rawValue)
        } else {
          decoded.truncate(to: 0)
          valueText = decoded.validString(decoded.appendPercentDecoded(bytes, rawValue, plusAsSpace: false))
        }
        guard let valueText else { throw invalid() }
        if let known {
          values.add(known, value: valueText)
          if known == .signature { return }
        } else {
          guard let nameText else { throw invalid() }
          values.add(other: nameText)
        }
        // Kept as received; re-encoded once, with the rest, for the base string.
        if bounds.isEmpty { bounds.reserveCapacity(4 * Name.allCases.count) }
        bounds.append(Int32(truncatingIfNeeded: rawName.lowerBound - header.lowerBound))
        bounds.append(Int32(truncatingIfNeeded: rawName.upperBound - header.lowerBound))
        bounds.append(Int32(truncatingIfNeeded: rawValue.lowerBound - header.lowerBound))
        bounds.append(Int32(truncatingIfNeeded: rawValue.upperBound - header.lowerBound))
      }
      // The header as read, with the values it unescaped after it: one copy.
      headerPairs = RawHeaderPairs(bytes: bytes.bytes(header.lowerBound..<bytes.count), bounds: bounds)
    } catch {
      if let refusal = budget.refusal { throw refusal }
      throw OAuthVerificationError(.parameterRejected, advice: "the Authorization header is malformed: \(error)")
    }
    if !foreign.isEmpty {
      let more = foreignCount > foreign.count ? " and \(foreignCount - foreign.count) more" : ""
      throw OAuthVerificationError(
        .parameterRejected,
        advice: "the Authorization header may carry only oauth_* parameters (and realm); it has \(foreign.joined(separator: ", "))\(more)",
        parameters: foreign)
    }
  }

  /// Reads the `oauth_*` pairs of a query or form body; `true` when there was one. `decoded` is
  /// the scratch a pair with escapes is decoded into.
  private mutating func readForm(
    _ raw: Range<Int>, _ source: OAuthParameterSource, _ bytes: borrowing ByteWriter, _ decoded: inout ByteWriter, _ budget: inout Budget
  ) throws(OAuthError) -> Bool {
    var found = false
    try CanonicalParameters.forEachRawPair(in: raw, bytes) { rawName, rawValue throws(OAuthError) in
      guard budget.count(source) else { throw ProtocolParameters.stop }
      let escaped = { (byte: UInt8) in byte == UInt8(ascii: "%") || byte == UInt8(ascii: "+") }
      // Most pairs are not protocol parameters: a name without escapes is checked on its bytes.
      let known: Name?
      let nameText: String
      if bytes.firstIndex(in: rawName, where: escaped) == nil {
        guard bytes.hasPrefix(rawName, "oauth_"), let text = bytes.validString(rawName) else { return }
        known = Name(bytes, rawName)
        nameText = text
      } else {
        decoded.truncate(to: 0)
        let name = decoded.appendPercentDecoded(bytes, rawName, plusAsSpace: true)
        guard decoded.hasPrefix(name, "oauth_"), let text = decoded.validString(name) else { return }
        known = Name(decoded, name)
        nameText = text
      }
      guard budget.countProtocol() else { throw ProtocolParameters.stop }
      let valueText: String?
      if bytes.firstIndex(in: rawValue, where: escaped) == nil {
        valueText = bytes.validString(rawValue)
      } else {
        decoded.truncate(to: 0)
        valueText = decoded.validString(decoded.appendPercentDecoded(bytes, rawValue, plusAsSpace: true))
      }
      guard let valueText else { throw .invalidParameterEncoding(source: source, parameter: nameText) }
      if let known { values.add(known, value: valueText) } else { values.add(other: nameText) }
      found = true
    }
    return found
  }

  /// Whether a header uses the OAuth scheme (case-insensitively, after leading spaces).
  private static func isOAuthScheme(_ header: Range<Int>, _ bytes: borrowing ByteWriter) -> Bool {
    let start = bytes.firstIndex(in: header) { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } ?? header.upperBound
    return AuthorizationHeaderScanner.startsWithOAuth(bytes, start..<header.upperBound)
  }

  /// The same on the header's text, for one too large to copy before its scheme is known: one
  /// of another scheme is not read, whatever its size.
  private static func isOAuthScheme(_ header: String) -> Bool {
    // Compared with the case folded (`| 0x20`): five bytes at most are read.
    var matched = 0
    for byte in header.utf8 {
      if matched == 0 && (byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")) { continue }
      let letter: UInt8
      switch matched {
      case 0: letter = UInt8(ascii: "o")
      case 1: letter = UInt8(ascii: "a")
      case 2: letter = UInt8(ascii: "u")
      case 3: letter = UInt8(ascii: "t")
      default: letter = UInt8(ascii: "h")
      }
      guard byte | 0x20 == letter else { return false }
      matched += 1
      if matched == 5 { return true }
    }
    return false
  }
}

extension ProtocolParameters {
  /// Builds the base string of `request` as received, with these protocol parameters, through
  /// the signing engine's stages 2 to 5, and lends it to `body` with an empty scratch.
  /// The verifier checks signatures here; ``OAuthSignatureBaseString/make(received:authorization:)``
  /// shows the same string to a person comparing it with a provider's.
  func withBaseString<R>(
    of request: OAuthRequest, _ body: (_ scratch: inout ByteWriter, _ baseString: borrowing ByteWriter) throws(OAuthError) -> R
  ) throws(OAuthError) -> R {
    // The closures capture only what they use: capturing the request or `self` copies them.
    let header = headerPairs, method = request.method, form = request.formBody
    try CanonicalParameters.checkSize(request.url.utf8.count + (form?.count ?? 0) + header.byteCount)
    return try ScratchArena.withBytes { scratch throws(OAuthError) in
      // The header's fields encoded, as the protocol parameters are when signing.
      try ScratchArena.withBytes { fields throws(OAuthError) in
        try RequestTarget.withScratch(url: request.url, host: request.host, form: form) { target, formRange, bytes, pairs throws(OAuthError) in
          try SigningEngine.withBaseString(method: method, target: target, form: formRange, header: header, &bytes, &fields, &pairs) {
            _, _, _, baseString, _ throws(OAuthError) in try body(&scratch, baseString)
          }
        }
      }
    }
  }
}
