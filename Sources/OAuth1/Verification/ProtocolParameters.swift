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
  /// The header's signed parameters (all but `oauth_signature`), canonically encoded in one
  /// buffer: query and form body ones are collected with the rest of their source.
  var signedBytes: [UInt8] = []
  /// Per parameter: name start, name end (= value start), value end, `%` count.
  var signedEntries: [Int32] = []

  typealias Name = ProtocolParameterName

  /// The `oauth_*` values of one request, in fixed slots (no hashing, no searching).
  struct Values {
    private var bodyHash, callback, consumerKey, nonce, signature, signatureMethod, timestamp, token, verifier, version: String?
    /// Every `oauth_*` name seen, in order, with repeats: for the error reports.
    private(set) var names: [String] = []
    private(set) var duplicates: [String] = []

    subscript(name: Name) -> String? {
      get {
        switch name {
        case .bodyHash: bodyHash
        case .callback: callback
        case .consumerKey: consumerKey
        case .nonce: nonce
        case .signature: signature
        case .signatureMethod: signatureMethod
        case .timestamp: timestamp
        case .token: token
        case .verifier: verifier
        case .version: version
        }
      }
      set {
        switch name {
        case .bodyHash: bodyHash = newValue
        case .callback: callback = newValue
        case .consumerKey: consumerKey = newValue
        case .nonce: nonce = newValue
        case .signature: signature = newValue
        case .signatureMethod: signatureMethod = newValue
        case .timestamp: timestamp = newValue
        case .token: token = newValue
        case .verifier: verifier = newValue
        case .version: version = newValue
        }
      }
    }

    mutating func add(name: String, known: Name?, value: String) {
      if names.contains(name) { duplicates.append(name) }
      names.append(name)
      if let known { self[known] = value }
    }
  }

  static func locate(request: OAuthRequest, authorization: String?) throws(OAuthVerificationError) -> ProtocolParameters {
    var located = ProtocolParameters()
    var sources: [OAuthParameterSource] = []
    do {
      if let authorization, isOAuthScheme(authorization) {
        try located.readHeader(authorization)
        if !located.values.names.isEmpty { sources.append(.authorizationHeader) }
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
      throw OAuthVerificationError(.parameterRejected, advice: "protocol parameters appear more than once: \(duplicates.joined(separator: ", "))", parameters: duplicates)
    }
    if sources.count > 1 {
      throw OAuthVerificationError(
        .parameterRejected, advice: "protocol parameters must be sent in one place, not in \(sources.map(\.description).sorted().joined(separator: " and "))",
        parameters: Array(Set(located.values.names)).sorted())
    }
    return located
  }

  /// Lends `body` the header's signed parameters as pairs pointing into ``signedBytes``.
  func withSignedPairs<R>(_ body: (UnsafeBufferPointer<EncodedPair>) throws(OAuthError) -> R) throws(OAuthError) -> R {
    let outcome: Result<R, OAuthError> = signedBytes.withUnsafeBufferPointer { bytes in
      withUnsafeTemporaryAllocation(of: EncodedPair.self, capacity: max(signedEntries.count / 4, 1)) { pairs in
        let entries = signedEntries
        for index in stride(from: 0, to: entries.count, by: 4) {
          let nameStart = Int(entries[index]), nameEnd = Int(entries[index + 1]), valueEnd = Int(entries[index + 2])
          pairs[index / 4] = EncodedPair(
            name: UnsafeBufferPointer(rebasing: bytes[nameStart..<nameEnd]), value: UnsafeBufferPointer(rebasing: bytes[nameEnd..<valueEnd]))
        }
        return Result { () throws(OAuthError) in try body(UnsafeBufferPointer(rebasing: pairs[..<(entries.count / 4)])) }
      }
    }
    return try outcome.get()
  }

  /// Reads the header's fields: `realm`, and `oauth_*` parameters only.
  private mutating func readHeader(_ header: String) throws(OAuthVerificationError) {
    var foreign: [String] = []
    do {
      try withUTF8Bytes(header) { bytes throws(OAuthError) in
        guard bytes.count <= CanonicalParameters.maximumRawBytes else {
          throw .requestTooLarge(bytes: bytes.count, limit: CanonicalParameters.maximumRawBytes)
        }
        signedBytes.reserveCapacity(3 * bytes.count)
        signedEntries.reserveCapacity(40)
        try AuthorizationHeaderScanner.scan(bytes) { rawName, rawValue throws(OAuthError) in
          if rawName.count == 5, memcmp(rawName.baseAddress!, "realm", 5) == 0 {
            realm = String(decoding: rawValue, as: UTF8.self)
            return
          }
          let nameBytes = PercentEncoding.decodeBytes(rawName)
          let valueBytes = PercentEncoding.decodeBytes(rawValue)
          guard let name = utf8String(nameBytes), let value = utf8String(valueBytes) else {
            throw .invalidParameterEncoding(source: .authorizationHeader, parameter: String(decoding: rawName, as: UTF8.self))
          }
          // Compared on bytes: as Characters, "_" and a combining mark after it are one.
          guard nameBytes.starts(with: "oauth_".utf8) else {
            foreign.append(name)
            return
          }
          let known = nameBytes.withUnsafeBufferPointer { Name($0) }
          values.add(name: name, known: known, value: value)
          if known != .signature { appendSigned(nameBytes, valueBytes) }
        }
      }
    } catch {
      throw OAuthVerificationError(.parameterRejected, advice: "the Authorization header is malformed: \(error)")
    }
    if !foreign.isEmpty {
      throw OAuthVerificationError(.parameterRejected, advice: "the Authorization header may carry only oauth_* parameters (and realm); it has \(foreign.joined(separator: ", "))", parameters: foreign)
    }
  }

  /// Keeps a header parameter, strictly encoded, for the base string.
  private mutating func appendSigned(_ name: [UInt8], _ value: [UInt8]) {
    let start = signedBytes.count
    var percents: Int32 = 0
    var nameEnd = start
    // Written in place: at most three bytes per byte.
    let room = 3 * (name.count + value.count)
    signedBytes.append(contentsOf: repeatElement(0, count: room))
    let end = signedBytes.withUnsafeMutableBufferPointer { buffer in
      var position = start
      func encode(_ bytes: [UInt8]) {
        let written = bytes.withUnsafeBufferPointer { PercentEncoding.encode($0, into: buffer.baseAddress! + position) }
        percents += Int32((written - bytes.count) / 2)
        position += written
      }
      encode(name)
      nameEnd = position
      encode(value)
      return position
    }
    signedBytes.removeLast(start + room - end)
    signedEntries.append(Int32(start))
    signedEntries.append(Int32(nameEnd))
    signedEntries.append(Int32(end))
    signedEntries.append(percents)
  }

  /// Reads the `oauth_*` pairs of a query or form body; `true` when there was one.
  private mutating func readForm(_ raw: UnsafeBufferPointer<UInt8>, _ source: OAuthParameterSource) throws(OAuthError) -> Bool {
    var found = false
    var segmentStart = 0
    while segmentStart < raw.count {
      var segmentEnd = segmentStart
      while segmentEnd < raw.count, raw[segmentEnd] != UInt8(ascii: "&") { segmentEnd += 1 }
      defer { segmentStart = segmentEnd + 1 }
      if segmentEnd == segmentStart { continue }
      let segment = raw[segmentStart..<segmentEnd]
      var equals = segmentStart
      while equals < segmentEnd, raw[equals] != UInt8(ascii: "=") { equals += 1 }
      let rawName = UnsafeBufferPointer(rebasing: segment[..<equals])
      // Most pairs are not protocol parameters: a name without escapes is checked on its bytes.
      if !rawName.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }), !rawName.starts(with: "oauth_".utf8) { continue }
      let nameBytes = PercentEncoding.decodeBytes(rawName, plusAsSpace: true)
      guard nameBytes.starts(with: "oauth_".utf8), let name = utf8String(nameBytes) else { continue }
      let rawValue = equals < segment.endIndex ? UnsafeBufferPointer(rebasing: segment[(equals + 1)...]) : UnsafeBufferPointer(start: nil, count: 0)
      guard let value = utf8String(PercentEncoding.decodeBytes(rawValue, plusAsSpace: true)) else {
        throw .invalidParameterEncoding(source: source, parameter: name)
      }
      values.add(name: name, known: nameBytes.withUnsafeBufferPointer { Name($0) }, value: value)
      found = true
    }
    return found
  }

  /// Whether a header uses the OAuth scheme (case-insensitively, after leading spaces).
  private static func isOAuthScheme(_ header: String) -> Bool {
    var bytes = header.utf8.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }.makeIterator()
    for expected in "oauth".utf8 {
      guard let byte = bytes.next(), byte | 0x20 == expected else { return false }
    }
    return true
  }
}
