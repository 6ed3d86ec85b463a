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
    do {
      if let authorization, isOAuthScheme(authorization) {
        try located.readHeader(authorization)
        if !located.values.isEmpty { sources.append(.authorizationHeader) }
      }
      try withUTF8Bytes(request.url) { url throws(OAuthError) in
        // Only the query is needed here; the URL itself is checked when the base string is built.
        guard let questionMark = url.firstIndex(of: UInt8(ascii: "?")) else { return }
        let end = url[(questionMark + 1)...].firstIndex(of: UInt8(ascii: "#")) ?? url.count
        if try located.readForm(UnsafeBufferPointer(rebasing: url[(questionMark + 1)..<end]), .query) { sources.append(.query) }
      }
      try request.withFormBody { body throws(OAuthError) in
        if let body, try located.readForm(body, .formBody) { sources.append(.formBody) }
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
  private mutating func readHeader(_ header: String) throws(OAuthVerificationError) {
    var foreign: [String] = []
    do {
      try withUTF8Bytes(header) { bytes throws(OAuthError) in
        // A third of the limit: the base string re-encodes the header's fields (three bytes per byte at most).
        guard bytes.count <= CanonicalParameters.maximumRawBytes / 3 else {
          throw .requestTooLarge(bytes: bytes.count, limit: CanonicalParameters.maximumRawBytes / 3)
        }
        headerPairs = RawHeaderPairs(capacity: bytes.count)
        try AuthorizationHeaderScanner.scan(bytes) { rawName, rawValue throws(OAuthError) in
          if rawName.count == 5, memcmp(rawName.baseAddress!, "realm", 5) == 0 {
            realm = String(decoding: rawValue, as: UTF8.self)
            return
          }
          try Self.withDecoded(rawName) { name throws(OAuthError) in
            // Compared on bytes: as Characters, "_" and a combining mark after it are one.
            guard Self.hasOAuthPrefix(name) else {
              foreign.append(String(decoding: name, as: UTF8.self))
              return
            }
            try Self.withDecoded(rawValue) { value throws(OAuthError) in
              func invalid() -> OAuthError {
                .invalidParameterEncoding(source: .authorizationHeader, parameter: String(decoding: rawName, as: UTF8.self))
              }
              // Strings only for what is kept: a known name's value, an unknown name itself.
              if let known = Name(name) {
                guard let valueText = utf8String(value) else { throw invalid() }
                values.add(known, value: valueText)
                if known == .signature { return }
              } else {
                guard utf8String(value) != nil, let nameText = utf8String(name) else { throw invalid() }
                values.add(other: nameText)
              }
              // Kept as received; re-encoded once, with the rest, for the base string.
              headerPairs.append(name: rawName, value: rawValue)
            }
          }
        }
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

  /// Lends `body` the bytes of `raw` with `%XX` decoded: `raw` itself when it has no escape.
  private static func withDecoded<R>(
    _ raw: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool = false, _ body: (UnsafeBufferPointer<UInt8>) throws(OAuthError) -> R
  ) throws(OAuthError) -> R {
    let escaped =
      plusAsSpace
      ? raw.contains { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }
      : raw.baseAddress.map { memchr($0, 0x25, raw.count) != nil } ?? false  // 0x25: "%"
    guard escaped else { return try body(raw) }
    let decoded = PercentEncoding.decodeBytes(raw, plusAsSpace: plusAsSpace)
    let outcome: Result<R, OAuthError> = decoded.withUnsafeBufferPointer { bytes in Result { () throws(OAuthError) in try body(bytes) } }
    return try outcome.get()
  }

  /// Whether decoded bytes begin with `oauth_`.
  static func hasOAuthPrefix(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    bytes.count >= 6 && memcmp(bytes.baseAddress!, "oauth_", 6) == 0
  }

  /// Reads the `oauth_*` pairs of a query or form body; `true` when there was one.
  private mutating func readForm(_ raw: UnsafeBufferPointer<UInt8>, _ source: OAuthParameterSource) throws(OAuthError) -> Bool {
    var found = false
    try PercentEncoding.forEachFormPair(in: raw) { rawName, rawValue throws(OAuthError) in
      // Most pairs are not protocol parameters: a name without escapes is checked on its bytes.
      if !rawName.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }), !Self.hasOAuthPrefix(rawName) { return }
      try Self.withDecoded(rawName, plusAsSpace: true) { name throws(OAuthError) in
        guard Self.hasOAuthPrefix(name), let nameText = utf8String(name) else { return }
        try Self.withDecoded(rawValue, plusAsSpace: true) { value throws(OAuthError) in
          guard let valueText = utf8String(value) else { throw .invalidParameterEncoding(source: source, parameter: nameText) }
          if let known = Name(name) { values.add(known, value: valueText) } else { values.add(other: nameText) }
          found = true
        }
      }
    }
    return found
  }

  /// Whether a header uses the OAuth scheme (case-insensitively, after leading spaces).
  private static func isOAuthScheme(_ header: String) -> Bool {
    (try? withUTF8Bytes(header) { bytes in
      var start = 0
      while start < bytes.count, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
      return AuthorizationHeaderScanner.startsWithOAuth(bytes, at: start)
    }) ?? false
  }
}

extension ProtocolParameters {
  /// Builds the base string of `request` as received, with these protocol parameters, through
  /// the signing engine's stages 2 to 5, and lends it to `body` with the request's own
  /// parameters. The verifier checks signatures here; ``OAuthSignatureBaseString/make(received:authorization:)``
  /// shows the same string to a person comparing it with a provider's.
  func withBaseString<R>(
    of request: OAuthRequest, _ body: (UnsafeBufferPointer<UInt8>, CanonicalParameters) throws(OAuthError) -> R
  ) throws(OAuthError) -> R {
    // The closures capture only what they use: capturing the request or `self` copies them.
    let header = headerPairs, method = request.method, url = request.url, host = request.host
    return try request.withFormBody { form throws(OAuthError) in
      try RequestTarget.with(url, host: host) { target throws(OAuthError) in
        try SigningEngine.withBaseString(
          method: method, target: target, form: form, header: header, protocolParameters: .init(start: nil, count: 0), body)
      }
    }
  }
}
