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
    private var otherNames: [String] = []
    private(set) var duplicates: [String] = []

    /// Every `oauth_*` name seen, once each.
    var names: [String] {
      Name.allCases.filter { seen & (1 << $0.rawValue) != 0 }.map(\.text) + otherNames
    }
    var isEmpty: Bool { seen == 0 && otherNames.isEmpty }

    subscript(name: Name) -> String? { slots[name.rawValue] }

    mutating func add(_ name: Name, value: String) {
      let bit: UInt16 = 1 << name.rawValue
      if seen & bit != 0 { duplicates.append(name.text) }
      seen |= bit
      slots[name.rawValue] = value
    }

    /// An `oauth_*` name this verifier does not know: signed, and checked for repeats.
    mutating func add(other name: String) {
      if otherNames.contains(name) { duplicates.append(name) }
      otherNames.append(name)
    }
  }

  static func locate(request: OAuthRequest, authorization: String?) throws(OAuthVerificationError) -> ProtocolParameters {
    var located = ProtocolParameters()
    var sources: [OAuthParameterSource] = []
    let form = request.formBody
    let urlBytes = request.url.utf8.count, formBytes = form?.count ?? 0
    do {
      if let authorization {
        let headerBytes = authorization.utf8.count
        // A third of the limit: the base string takes the header's fields three times.
        guard headerBytes <= CanonicalParameters.maximumRawBytes / 3 else {
          throw OAuthError.requestTooLarge(bytes: headerBytes, limit: CanonicalParameters.maximumRawBytes / 3)
        }
        // The header with room to unescape its quoted-pairs, and a scratch to decode a field.
        try ScratchArena.withBytes(capacity: 2 * headerBytes) { bytes in
          try ScratchArena.withBytes(capacity: headerBytes) { decoded in
            let header = bytes.append(contentsOf: authorization)
            if isOAuthScheme(header, bytes) {
              try located.readHeader(header, &bytes, &decoded)
              if !located.values.isEmpty { sources.append(.authorizationHeader) }
            }
          }
        }
      }
      try CanonicalParameters.checkSize(urlBytes + formBytes)
      // The URL and the form body, and a scratch to decode a pair.
      try ScratchArena.withBytes(capacity: urlBytes + formBytes) { bytes in
        try ScratchArena.withBytes(capacity: max(urlBytes, formBytes)) { decoded in
          // Only the query is needed here; the URL itself is checked when the base string is built.
          let url = bytes.append(contentsOf: request.url)
          if let questionMark = bytes.firstIndex(of: UInt8(ascii: "?"), in: url) {
            let end = bytes.firstIndex(of: UInt8(ascii: "#"), in: (questionMark + 1)..<url.upperBound) ?? url.upperBound
            if try located.readForm((questionMark + 1)..<end, .query, bytes, &decoded) { sources.append(.query) }
          }
          if let body = bytes.append(contentsOf: form), try located.readForm(body, .formBody, bytes, &decoded) { sources.append(.formBody) }
        }
      }
    } catch let error as OAuthVerificationError {
      throw error
    } catch {
      throw OAuthVerificationError(.parameterRejected, advice: "the request cannot be verified: \(error)")
    }

    let duplicates = located.values.duplicates
    if !duplicates.isEmpty {
      throw OAuthVerificationError(
        .parameterRejected, advice: "protocol parameters appear more than once: \(duplicates.joined(separator: ", "))", parameters: duplicates)
    }
    if sources.count > 1 {
      throw OAuthVerificationError(
        .parameterRejected,
        advice: "protocol parameters must be sent in one place, not in \(sources.map(\.description).sorted().joined(separator: " and "))",
        parameters: Array(Set(located.values.names)).sorted())
    }
    return located
  }

  /// Reads the header's fields: `realm`, and `oauth_*` parameters only. `decoded` is the
  /// scratch a field with escapes is decoded into.
  private mutating func readHeader(_ header: Range<Int>, _ bytes: inout ByteWriter, _ decoded: inout ByteWriter) throws(OAuthVerificationError) {
    var foreign: [String] = []
    var bounds: [Int32] = []
    do {
      try AuthorizationHeaderScanner.scan(header, in: &bytes) { rawName, rawValue, bytes throws(OAuthError) in
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
            foreign.append(bytes.string(rawName))
            return
          }
          known = Name(bytes, rawName)
          if known == nil { nameText = bytes.validString(rawName) }
        } else {
          decoded.truncate(to: 0)
          let name = decoded.appendPercentDecoded(bytes, rawName, plusAsSpace: false)
          guard decoded.hasPrefix(name, "oauth_") else {
            foreign.append(decoded.string(name))
            return
          }
          known = Name(decoded, name)
          if known == nil { nameText = decoded.validString(name) }
        }
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
      throw OAuthVerificationError(.parameterRejected, advice: "the Authorization header is malformed: \(error)")
    }
    if !foreign.isEmpty {
      throw OAuthVerificationError(
        .parameterRejected,
        advice: "the Authorization header may carry only oauth_* parameters (and realm); it has \(foreign.joined(separator: ", "))",
        parameters: foreign)
    }
  }

  /// Reads the `oauth_*` pairs of a query or form body; `true` when there was one. `decoded` is
  /// the scratch a pair with escapes is decoded into.
  private mutating func readForm(
    _ raw: Range<Int>, _ source: OAuthParameterSource, _ bytes: borrowing ByteWriter, _ decoded: inout ByteWriter
  ) throws(OAuthError) -> Bool {
    var found = false
    try CanonicalParameters.forEachRawPair(in: raw, bytes) { rawName, rawValue throws(OAuthError) in
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
}

extension ProtocolParameters {
  /// Builds the base string of `request` as received, with these protocol parameters, through
  /// the signing engine's stages 2 to 5, and lends it to `body` with a scratch of `room` bytes.
  /// The verifier checks signatures here; ``OAuthSignatureBaseString/make(received:authorization:)``
  /// shows the same string to a person comparing it with a provider's.
  func withBaseString<R>(
    of request: OAuthRequest, room extra: Int, _ body: (_ scratch: inout ByteWriter, _ baseString: borrowing ByteWriter) throws(OAuthError) -> R
  ) throws(OAuthError) -> R {
    // The closures capture only what they use: capturing the request or `self` copies them.
    let header = headerPairs, method = request.method, form = request.formBody
    let urlBytes = request.url.utf8.count, formBytes = form?.count ?? 0
    try CanonicalParameters.checkSize(urlBytes + formBytes + header.byteCount)
    return try ScratchArena.withBytes(capacity: extra) { scratch throws(OAuthError) in
      // The header's fields encoded, as the protocol parameters are when signing.
      try ScratchArena.withBytes(capacity: 3 * header.byteCount) { fields throws(OAuthError) in
        // The query and form pairs encoded: three bytes per byte at most.
        try RequestTarget.withScratch(
          url: request.url, host: request.host, form: form, bytes: 3 * (urlBytes + formBytes), extraPairs: header.count
        ) { target, formRange, bytes, pairs throws(OAuthError) in
          try SigningEngine.withBaseString(method: method, target: target, form: formRange, header: header, &bytes, &fields, &pairs) {
            _, _, _, baseString, _ throws(OAuthError) in try body(&scratch, baseString)
          }
        }
      }
    }
  }
}
