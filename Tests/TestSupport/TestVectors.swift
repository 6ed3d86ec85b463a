import Foundation

/// One file of `Vectors/` (the schema is described in `Vectors/README.md`).
public struct VectorFile: Decodable, Sendable {
  public var name: String = ""
  public let source: String
  public let vectors: [Vector]

  enum CodingKeys: String, CodingKey { case source, vectors }

  /// Every `*.json` file of `Vectors/`, by name.
  public static func loadAll() throws -> [VectorFile] {
    let files = try FileManager.default.contentsOfDirectory(at: PackagePaths.vectors, includingPropertiesForKeys: nil)
      .filter { $0.pathExtension == "json" }
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
    return try files.map { url in
      var file = try JSONDecoder().decode(VectorFile.self, from: Data(contentsOf: url))
      file.name = url.lastPathComponent
      return file
    }
  }
}

/// One published vector: inputs, the values its source published, and corrections.
public struct Vector: Decodable, Sendable {
  public let id: String
  public let source: String
  public let description: String
  public let stages: [String]
  public let input: Values
  public let expected: Values
  public let verified: Bool
  public let knownWrongFields: [String]?
  public let computed: Values?
  public let verificationNote: String?

  enum CodingKeys: String, CodingKey {
    case id, source, description, stages, input, expected, verified, computed
    case knownWrongFields = "known_wrong_fields"
    case verificationNote = "verification_note"
  }

  /// The value to test against: the corrected one for a field the source got wrong.
  public func expected<T>(_ key: KeyPath<Values, T?>, named name: String) -> T? {
    if knownWrongFields?.contains(name) == true, let corrected = computed?[keyPath: key] { return corrected }
    return expected[keyPath: key]
  }

  /// Whether `name` is a published value known to be wrong (then the test uses `computed`).
  public func isCorrected(_ name: String) -> Bool { knownWrongFields?.contains(name) == true }
}

/// The input and expected keys of every vector file; each vector uses a few.
public struct Values: Decodable, Sendable {
  // Request
  public let method: String?
  public let url: String?
  public let host: String?
  public let body: String?
  public let contentType: String?
  public let oauthParams: [[String]]?
  public let params: [[String]]?
  public let form: String?
  public let baseStringURI: String?
  public let baseString: String?
  public let authorizationHeader: String?
  public let realm: String?
  // Keys
  public let consumerSecret: String?
  public let tokenSecret: String?
  public let signatureMethod: String?
  public let rsaPrivateKeyPEM: String?
  public let rsaCertificatePEM: String?
  // Transmission
  public let headerParams: [[String]]?
  public let orderedParams: [[String]]?
  // Encoding
  public let value: String?
  public let encoded: String?
  public let decoded: String?
  // Body hash
  public let bodyHashAlgorithm: String?
  public let bodyCharset: String?
  public let oauthBodyHash: String?
  // Results
  public let signature: String?
  public let signatureHex: String?
  public let signatureFromHex: String?
  public let signatureEncoded: String?
  public let signingKey: String?
  public let normalizedParameters: String?
  public let collectedParams: [[String]]?
  public let parsedHeaderParams: [[String]]?
  public let parsedHeaderParamsRaw: [[String]]?
  public let formEncoded: String?
  public let error: Bool?
  public let rsaVerifiesWithCertificate: Bool?

  enum CodingKeys: String, CodingKey {
    case method, url, host, body, form, realm, value, encoded, decoded, signature, params, error
    case contentType = "content_type"
    case oauthParams = "oauth_params"
    case baseStringURI = "base_string_uri"
    case baseString = "base_string"
    case authorizationHeader = "authorization_header"
    case consumerSecret = "consumer_secret"
    case tokenSecret = "token_secret"
    case signatureMethod = "signature_method"
    case rsaPrivateKeyPEM = "rsa_private_key_pem"
    case rsaCertificatePEM = "rsa_certificate_pem"
    case headerParams = "header_params"
    case orderedParams = "ordered_params"
    case bodyHashAlgorithm = "body_hash_algorithm"
    case bodyCharset = "body_charset"
    case oauthBodyHash = "oauth_body_hash"
    case signatureHex = "signature_hex"
    case signatureFromHex = "signature_from_hex"
    case signatureEncoded = "signature_encoded"
    case signingKey = "signing_key"
    case normalizedParameters = "normalized_parameters"
    case collectedParams = "collected_params"
    case parsedHeaderParams = "parsed_header_params"
    case parsedHeaderParamsRaw = "parsed_header_params_raw"
    case formEncoded = "form_encoded"
    case rsaVerifiesWithCertificate = "rsa_verifies_with_certificate"
  }
}
