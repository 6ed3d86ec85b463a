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
    let headerBytes = authorization?.utf8.count ?? 0, urlBytes = request.url.utf8.count, formBytes = form?.count ?? 0
    do {
      // A quarter of the limit: the base string takes the header's fields four times.
      guard headerBytes <= CanonicalParameters.maximumRawBytes / 4 else {
        throw OAuthError.requestTooLarge(bytes: headerBytes, limit: CanonicalParameters.maximumRawBytes / 4)
      }
      try CanonicalParameters.checkSize(urlBytes + formBytes)
      // Each source copied in, with room to unescape and decode one of its fields at a time.
      try ScratchArena.withBytes(capacity: 3 * headerBytes + 2 * (urlBytes + formBytes)) { bytes in
        if let authorization {
          let header = bytes.append(contentsOf: authorization)
          if isOAuthScheme(header, bytes) {
            try located.readHeader(header, &bytes)
            if !located.values.isEmpty { sources.append(.authorizationHeader) }
          }
        }
        // Only the query is needed here; the URL itself is checked when the base string is built.
        let url = bytes.append(contentsOf: request.url)
        if let questionMark = bytes.firstIndex(of: UInt8(ascii: "?"), in: url) {
          let end = bytes.firstIndex(of: UInt8(ascii: "#"), in: (questionMark + 1)..<url.upperBound) ?? url.upperBound
          if try located.readForm((questionMark + 1)..<end, .query, &bytes) { sources.append(.query) }
        }
        if let form {
          let body = bytes.append(contentsOf: form)
          if try located.readForm(body, .formBody, &bytes) { sources.append(.formBody) }
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

  /// Reads the header's fields: `realm`, and `oauth_*` parameters only.
  private mutating func readHeader(_ header: Range<Int>, _ bytes: inout ByteWriter) throws(OAuthVerificationError) {
    var foreign: [String] = []
    do {
      headerPairs = RawHeaderPairs(capacity: header.count)
      try AuthorizationHeaderScanner.scan(header, in: &bytes) { rawName, rawValue, bytes throws(OAuthError) in
        if bytes.elementsEqual(rawName, "realm") {
          realm = bytes.string(rawValue)
          return
        }
        // Decoded copies are needed for this field only.
        let mark = bytes.count
        defer { bytes.truncate(to: mark) }
        let name = Self.decoded(rawName, plusAsSpace: false, &bytes)
        // Compared on bytes: as Characters, "_" and a combining mark after it are one.
        guard bytes.hasPrefix(name, "oauth_") else {
          foreign.append(bytes.string(name))
          return
        }
        let value = Self.decoded(rawValue, plusAsSpace: false, &bytes)
        // Strings only for what is kept: a known name's value, an unknown name itself.
        if let known = Name(bytes, name) {
          guard let valueText = bytes.validString(value) else {
            throw .invalidParameterEncoding(source: .authorizationHeader, parameter: bytes.string(rawName))
          }
          values.add(known, value: valueText)
          if known == .signature { return }
        } else {
          guard bytes.validString(value) != nil, let nameText = bytes.validString(name) else {
            throw .invalidParameterEncoding(source: .authorizationHeader, parameter: bytes.string(rawName))
          }
          values.add(other: nameText)
        }
        // Kept as received; re-encoded once, with the rest, for the base string.
        headerPairs.append(name: rawName, value: rawValue, from: bytes)
      }
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

  /// The bytes of `raw` with `%XX` (and `+`, when `plusAsSpace`) decoded: `raw` itself when it
  /// has no escape, else a decoded copy appended to `bytes`.
  private static func decoded(_ raw: Range<Int>, plusAsSpace: Bool, _ bytes: inout ByteWriter) -> Range<Int> {
    let escaped =
      plusAsSpace
      ? bytes.firstIndex(in: raw) { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") } != nil
      : bytes.firstIndex(of: UInt8(ascii: "%"), in: raw) != nil
    guard escaped else { return raw }
    let start = bytes.count
    var index = raw.lowerBound
    while index < raw.upperBound {
      let byte = bytes[index]
      if byte == UInt8(ascii: "%"), index + 2 < raw.upperBound, let high = PercentEncoding.hexValue(bytes[index + 1]),
        let low = PercentEncoding.hexValue(bytes[index + 2])
      {
        bytes.append(high << 4 | low)
        index += 3
      } else {
        bytes.append(byte == UInt8(ascii: "+") && plusAsSpace ? UInt8(ascii: " ") : byte)
        index += 1
      }
    }
    return start..<bytes.count
  }

  /// Reads the `oauth_*` pairs of a query or form body; `true` when there was one.
  private mutating func readForm(_ raw: Range<Int>, _ source: OAuthParameterSource, _ bytes: inout ByteWriter) throws(OAuthError) -> Bool {
    var found = false
    try CanonicalParameters.forEachRawPair(in: raw, &bytes) { rawName, rawValue, bytes throws(OAuthError) in
      // Most pairs are not protocol parameters: a name without escapes is checked on its bytes.
      if bytes.firstIndex(in: rawName, where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) == nil,
        !bytes.hasPrefix(rawName, "oauth_")
      {
        return
      }
      let mark = bytes.count
      defer { bytes.truncate(to: mark) }
      let name = Self.decoded(rawName, plusAsSpace: true, &bytes)
      guard bytes.hasPrefix(name, "oauth_"), let nameText = bytes.validString(name) else { return }
      let value = Self.decoded(rawValue, plusAsSpace: true, &bytes)
      guard let valueText = bytes.validString(value) else { throw .invalidParameterEncoding(source: source, parameter: nameText) }
      if let known = Name(bytes, name) { values.add(known, value: valueText) } else { values.add(other: nameText) }
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
  /// the signing engine's stages 2 to 5, and lends it to `body` with a scratch that has `room`
  /// bytes free. The verifier checks signatures here; ``OAuthSignatureBaseString/make(received:authorization:)``
  /// shows the same string to a person comparing it with a provider's.
  func withBaseString<R>(
    of request: OAuthRequest, room extra: Int, _ body: (_ scratch: inout ByteWriter, _ baseString: borrowing ByteWriter) throws(OAuthError) -> R
  ) throws(OAuthError) -> R {
    // The closures capture only what they use: capturing the request or `self` copies them.
    let header = headerPairs, method = request.method, form = request.formBody
    let urlBytes = request.url.utf8.count, formBytes = form?.count ?? 0
    try CanonicalParameters.checkSize(urlBytes + formBytes + header.byteCount)
    return try ScratchArena.withBytes(capacity: extra) { scratch throws(OAuthError) in
      // The query and form pairs encoded, the header's fields copied and encoded.
      try RequestTarget.withScratch(
        url: request.url, host: request.host, form: form, bytes: 3 * (urlBytes + formBytes) + 4 * header.byteCount, extraPairs: header.count
      ) { target, formRange, bytes, pairs throws(OAuthError) in
        try SigningEngine.withBaseString(method: method, target: target, form: formRange, header: header, &bytes, &scratch, &pairs) {
          _, scratch, _, baseString, _ throws(OAuthError) in try body(&scratch, baseString)
        }
      }
    }
  }
}
