import Foundation
import Loopback
import NetworkClient

/// Every answer a ``SandboxServer`` sends, appended to a file as JSON lines, one object per
/// answer: `tweets sandbox serve --record-exchanges FILE`, so that a harness can check the
/// sandbox's answers against X's OpenAPI specification (the package's tests do, with
/// `Tests/Peers/openapi_check.py`, for every sandbox their processes talk to).
///
/// Each line holds `method`, `path` and `query` (as sent, percent-encoded), `status`,
/// `content_type`, `body` (UTF-8 text; `body_base64` when it is not), `delivery` (`whole`,
/// `truncated`, `reset_mid_body`, `reset`: a scripted fault's), `spelling` (`tweet`, `post`),
/// and `scripted` when a test's script replaced the sandbox's answer (`invalid_json`, `html`,
/// `body`, `redirect`). A stream's answer is one line with an empty body, then one line per
/// line of the stream (`"stream_line": true`), keep-alives left out. No secret reaches it: it
/// holds no request header; of the OAuth 1.0a and 2.0 endpoints (wherever their path is: a base
/// URL with a path of its own, `/x-api/oauth/access_token`, is served too) and of the control
/// API, whose answers carry tokens, PINs and codes, only the method, path and status
/// (`"withheld"` says so); and in any other body or query, form or JSON, the values of the
/// fields that name credentials (``credentialFields``) are replaced by `[withheld]`
/// (`"redacted"` lists the fields). The file is created readable by its owner only (0600).
///
/// ```swift
/// let log = try SandboxExchangeLog(file: URL(fileURLWithPath: "/tmp/answers.jsonl"), spelling: .tweet)
/// let server = try SandboxServer(sandbox: XSandbox(), exchangeLog: log)
/// ```
package final class SandboxExchangeLog: Sendable {
  private let handle: Locked<FileHandle>
  private let spelling: SandboxSpelling

  /// What opening the log's file failed on.
  package struct Failure: Error, CustomStringConvertible {
    /// Which file, and what to check.
    package let description: String
  }

  /// A log appending to `file` (made if missing, kept if present) of answers in `spelling`.
  package init(file: URL, spelling: SandboxSpelling) throws(Failure) {
    if !FileManager.default.fileExists(atPath: file.path) {
      guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
        throw Failure(description: "cannot create the exchange log \(file.path): check that its folder exists and is writable")
      }
    }
    guard let handle = try? FileHandle(forWritingTo: file) else {
      throw Failure(description: "cannot write to the exchange log \(file.path): check its permissions")
    }
    _ = try? handle.seekToEnd()
    self.handle = Locked(handle)
    self.spelling = spelling
  }

  /// Appends one answer to `method` `target` (path and query, as sent).
  func record(method: String, target: String, response: LoopbackHTTPServer.Response, scripted: String?, streamLine: Data? = nil) {
    let (path, sentQuery) = target.split(separator: "?", maxSplits: 1).map(String.init).splitPathAndQuery
    let withheld = Self.carriesCredentials(path)
    let (query, queryRedacted) = withheld ? ("", []) : Self.redactedForm(sentQuery)
    let (body, bodyRedacted) = withheld ? (Data(), []) : Self.redacted(streamLine ?? response.body)
    var entry: [String: Any] = [
      "method": method, "path": path, "query": query, "status": response.delivery == .reset ? 0 : response.status,
      "content_type": response.headers.first { $0.0.lowercased() == "content-type" }?.1 ?? "", "delivery": Self.name(response.delivery),
      "spelling": spelling.rawValue,
    ]
    if let text = String(data: body, encoding: .utf8) { entry["body"] = text } else { entry["body_base64"] = body.base64EncodedString() }
    if withheld { entry["withheld"] = "body and query: an OAuth or control API exchange, which may carry credentials" }
    let redacted = Set(queryRedacted + bodyRedacted).sorted()
    if !redacted.isEmpty { entry["redacted"] = redacted }
    if let scripted { entry["scripted"] = scripted }
    if streamLine != nil { entry["stream_line"] = true }
    guard var line = try? JSONSerialization.data(withJSONObject: entry, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
    line.append(0x0A)
    handle.withLock { try? $0.write(contentsOf: line) }
  }

  /// A stream writer that also records each line it writes (keep-alives aside).
  func recording(_ writer: any StreamingBodyWriter, method: String, target: String, response: LoopbackHTTPServer.Response) -> any StreamingBodyWriter
  {
    RecordingWriter(base: writer) { line in
      self.record(method: method, target: target, response: response, scripted: nil, streamLine: line)
    }
  }

  /// Whether answers to `path` may carry credentials (tokens, PINs, codes, the control API's
  /// secrets): the OAuth 1.0a and 2.0 endpoints and the control API, none of them in X's v2
  /// specification. Their bodies and queries are left out of the log.
  static func carriesCredentials(_ path: String) -> Bool {
    let segments = path.split(separator: "/")
    return segments.contains("oauth") || segments.contains("oauth2") || XSandbox.isOAuth2Path(path) || path.hasPrefix(XSandbox.controlPrefix)
  }

  /// The fields whose values are credentials, in a form or JSON body or a query: OAuth 1.0a's
  /// tokens, secrets and verifier, OAuth 2.0's tokens, code and client secret. In JSON only a
  /// string value is replaced (v1.1's numeric error `code` stays).
  package static let credentialFields: Set<String> = [
    "oauth_token", "oauth_token_secret", "oauth_verifier", "access_token", "refresh_token", "id_token", "client_secret", "code",
    "code_verifier",
  ]

  /// `body` with the values of ``credentialFields`` replaced by `[withheld]`, as JSON when it is
  /// JSON, else as a form; unchanged (byte for byte) when it names none. And the fields replaced.
  package static func redacted(_ body: Data) -> (Data, [String]) {
    if let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) {
      var found: [String] = []
      let cleaned = redactedJSON(json, found: &found)
      guard !found.isEmpty, let data = try? JSONSerialization.data(withJSONObject: cleaned, options: [.sortedKeys, .withoutEscapingSlashes])
      else { return (body, []) }
      return (data, found)
    }
    guard let text = String(data: body, encoding: .utf8), !text.contains("\n") else { return (body, []) }
    let (form, found) = redactedForm(text)
    return found.isEmpty ? (body, []) : (Data(form.utf8), found)
  }

  /// A form (`a=1&oauth_token_secret=s`) with the values of ``credentialFields`` replaced.
  package static func redactedForm(_ form: String) -> (String, [String]) {
    var found: [String] = []
    let pairs = form.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
      let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
      let decoded = (name.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? name).lowercased()
      guard credentialFields.contains(decoded) else { return String(pair) }
      found.append(decoded)
      return name + "=%5Bwithheld%5D"
    }
    return (found.isEmpty ? form : pairs.joined(separator: "&"), found)
  }

  private static func redactedJSON(_ value: Any, found: inout [String]) -> Any {
    switch value {
    case let object as [String: Any]:
      var cleaned: [String: Any] = [:]
      for (key, inner) in object {
        if credentialFields.contains(key.lowercased()), inner is String {
          found.append(key.lowercased())
          cleaned[key] = "[withheld]"
        } else {
          cleaned[key] = redactedJSON(inner, found: &found)
        }
      }
      return cleaned
    case let array as [Any]: return array.map { redactedJSON($0, found: &found) }
    default: return value
    }
  }

  private static func name(_ delivery: LoopbackHTTPServer.Response.Delivery) -> String {
    switch delivery {
    case .whole: "whole"
    case .truncated: "truncated"
    case .resetMidBody: "reset_mid_body"
    case .reset: "reset"
    }
  }
}

extension [String] {
  /// A request target's two halves, split at its first `?`: path and query (empty when none).
  fileprivate var splitPathAndQuery: (String, String) { (first ?? "", count > 1 ? self[1] : "") }
}

/// Writes through to `base`, handing each non-blank line written to `record`.
private struct RecordingWriter: StreamingBodyWriter {
  let base: any StreamingBodyWriter
  let record: @Sendable (Data) -> Void

  func write(_ data: Data) -> Bool {
    let written = base.write(data)
    if written {
      for line in data.split(separator: 0x0A) where !line.allSatisfy({ $0 == 0x0D }) { record(Data(line.last == 0x0D ? line.dropLast() : line)) }
    }
    return written
  }

  func reset() { base.reset() }
}
