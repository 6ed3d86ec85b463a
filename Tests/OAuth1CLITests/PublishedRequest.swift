import Foundation
import TestSupport

/// A published vector turned into `oauth1 sign` options, when it describes a complete request
/// that the command line can express.
struct PublishedRequest {
  let arguments: [String]
  private let keyFile: URL?

  init?(_ vector: Vector) throws {
    let input = vector.input
    guard let url = input.url, input.params == nil, input.baseStringURI == nil, input.host == nil,
      let oauth = input.oauthParams, !oauth.isEmpty,
      vector.expected.signature != nil || vector.expected.baseString != nil
    else { return nil }
    var values: [String: String] = [:]
    for pair in oauth { values[pair[0]] = pair[1] }
    let options: [String: String] = [
      "oauth_consumer_key": "--consumer-key", "oauth_token": "--token", "oauth_nonce": "--nonce",
      "oauth_timestamp": "--timestamp", "oauth_signature_method": "--signature-method",
      "oauth_callback": "--callback", "oauth_verifier": "--verifier",
    ]
    let expressible = Set(options.keys).union(["oauth_version", "oauth_body_hash"])
    guard Set(values.keys).isSubset(of: expressible), values["oauth_consumer_key"] != nil else { return nil }
    // oauthlib's tests use the timestamp "abc"; a signer only produces whole seconds.
    if let timestamp = values["oauth_timestamp"], Int64(timestamp) == nil { return nil }

    var arguments = ["--method", input.method ?? "GET", "--url", url]
    for (name, option) in options.sorted(by: { $0.key < $1.key }) {
      if let value = values[name] { arguments += [option, value] }
    }
    if values["oauth_signature_method"] == nil, let method = input.signatureMethod {
      arguments += ["--signature-method", method]
    }
    if values["oauth_version"] == nil { arguments.append("--no-version") }
    if values["oauth_body_hash"] != nil {
      arguments += ["--body-hash", "--body-hash-algorithm", input.bodyHashAlgorithm ?? "SHA-1"]
    }
    if let body = input.body { arguments += ["--body", body] }
    if let contentType = input.contentType { arguments += ["--content-type", contentType] }
    if let realm = input.realm { arguments += ["--realm", realm] }
    arguments += ["--consumer-secret", input.consumerSecret ?? ""]
    // A token secret without a token (oauthlib's client tests) is signed too, with a note.
    if values["oauth_token"] != nil || !(input.tokenSecret ?? "").isEmpty { arguments += ["--token-secret", input.tokenSecret ?? ""] }
    if let pem = input.rsaPrivateKeyPEM {
      let file = try temporaryFile(named: "key.pem", contents: Data(pem.utf8))
      arguments += ["--private-key", file.path]
      keyFile = file
    } else {
      keyFile = nil
    }
    self.arguments = arguments
  }

  func cleanUp() {
    if let keyFile { try? FileManager.default.removeItem(at: keyFile.deletingLastPathComponent()) }
  }
}
