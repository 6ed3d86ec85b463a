import PercentEncoding

/// Finds the protocol parameters of a received request in the one place they were sent:
/// the Authorization header, the query or the form body (RFC 5849, section 3.5).
struct ProtocolParameters {
  /// Every `oauth_*` value by name, `oauth_signature` included.
  var values: Values
  /// The header's realm.
  var realm: String?
  /// The protocol parameters to sign: from the header when they came there (query and form
  /// body ones are collected with the rest of their source).
  var signed: [OAuthParameter]

  /// The `oauth_*` values of one request: a handful, so a list searched in order (no hashing).
  struct Values {
    private(set) var parameters: [OAuthParameter] = []

    subscript(name: String) -> String? {
      for parameter in parameters where parameter.name == name { return parameter.value }
      return nil
    }

    /// Adds a value; `false` when the name was already there.
    mutating func add(_ parameter: OAuthParameter) -> Bool {
      let isNew = self[parameter.name] == nil
      parameters.append(parameter)
      return isNew
    }
  }

  static func locate(request: OAuthRequest, authorization: String?) throws(OAuthVerificationError) -> ProtocolParameters {
    var found: [(parameter: OAuthParameter, source: OAuthParameterSource)] = []
    var realm: String?
    var fromHeader: [OAuthParameter] = []

    if let authorization, isOAuthScheme(authorization) {
      let fields: OAuthAuthorizationHeader.Fields
      do {
        fields = try OAuthAuthorizationHeader.parse(authorization)
      } catch {
        throw OAuthVerificationError(.parameterRejected, advice: "the Authorization header is malformed: \(error)")
      }
      let foreign = fields.parameters.map(\.name).filter { !$0.hasPrefix("oauth_") }
      if !foreign.isEmpty {
        throw OAuthVerificationError(.parameterRejected, advice: "the Authorization header may carry only oauth_* parameters (and realm); it has \(foreign.joined(separator: ", "))", parameters: foreign)
      }
      realm = fields.realm
      fromHeader = fields.parameters
      found += fields.parameters.map { ($0, .authorizationHeader) }
    }
    do {
      // Only the query is needed here; the URL itself is checked when the base string is built.
      let url = request.url.utf8
      if let questionMark = url.firstIndex(of: UInt8(ascii: "?")) {
        let query = url[url.index(after: questionMark)...].prefix { $0 != UInt8(ascii: "#") }
        found += try parse(Array(query), .query)
      }
      if request.hasFormBody, let body = request.body {
        found += try parse(Array(body), .formBody)
      }
    } catch let error as OAuthVerificationError {
      throw error
    } catch {
      throw OAuthVerificationError(.parameterRejected, advice: "the request cannot be verified: \(error)")
    }

    var values = Values()
    var sources: [OAuthParameterSource] = []
    var duplicates: [String] = []
    for (parameter, source) in found where parameter.name.hasPrefix("oauth_") {
      if !values.add(parameter) { duplicates.append(parameter.name) }
      if !sources.contains(source) { sources.append(source) }
    }
    if !duplicates.isEmpty {
      throw OAuthVerificationError(.parameterRejected, advice: "protocol parameters appear more than once: \(duplicates.joined(separator: ", "))", parameters: duplicates)
    }
    if sources.count > 1 {
      throw OAuthVerificationError(.parameterRejected, advice: "protocol parameters must be sent in one place, not in \(sources.map(\.description).sorted().joined(separator: " and "))", parameters: Array(Set(values.parameters.map(\.name))).sorted())
    }
    return ProtocolParameters(values: values, realm: realm, signed: fromHeader)
  }

  private static func parse(_ bytes: some Collection<UInt8>, _ source: OAuthParameterSource) throws -> [(parameter: OAuthParameter, source: OAuthParameterSource)] {
    // parseForm drops oauth_signature; the verifier needs it, so parse the pairs directly.
    var result: [(parameter: OAuthParameter, source: OAuthParameterSource)] = []
    for segment in bytes.split(separator: UInt8(ascii: "&")) {
      let equals = segment.firstIndex(of: UInt8(ascii: "="))
      // Most pairs are not protocol parameters: a name without escapes is checked on its bytes.
      let rawName = segment[..<(equals ?? segment.endIndex)]
      if !rawName.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }), !rawName.starts(with: "oauth_".utf8) { continue }
      let name = PercentEncoding.decode(String(decoding: segment[..<(equals ?? segment.endIndex)], as: UTF8.self), plusAsSpace: true)
      guard let name, name.hasPrefix("oauth_") else { continue }
      let raw = equals.map { String(decoding: segment[segment.index(after: $0)...], as: UTF8.self) } ?? ""
      guard let value = PercentEncoding.decode(raw, plusAsSpace: true) else {
        throw OAuthVerificationError(.parameterRejected, advice: "\(name) in the \(source) is not UTF-8", parameters: [name])
      }
      result.append((OAuthParameter(name, value), source))
    }
    return result
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
