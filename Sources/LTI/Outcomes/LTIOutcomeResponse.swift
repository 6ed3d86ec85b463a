import Foundation

/// The outcome service's answer to an ``LTIOutcomeRequest``: its status (`success`, `failure`,
/// `unsupported`, `processing`), its description, and for `readResult` the score.
///
/// A tool reads one from the platform (``LTIOutcomesClient`` does); a platform writes one
/// with ``init(status:description:answering:score:messageIdentifier:)`` and sends ``xml``.
///
/// ```swift
/// let answer = try await client.replaceResult(at: url, sourcedID: id, score: 0.5)
/// if answer.status != .success { print(answer.description ?? "refused") }
/// ```
public struct LTIOutcomeResponse: Sendable, Hashable {
  /// `imsx_codeMajor`: how the request went.
  public enum Status: String, Sendable, Hashable, Codable {
    /// Done.
    case success
    /// Refused or failed (a sourced id the platform does not know, a score out of range…).
    case failure
    /// The platform does not do this operation (a `deleteResult` some platforms refuse).
    case unsupported
    /// Accepted and still being done.
    case processing
  }

  /// How the request went.
  public var status: Status
  /// `imsx_description`: the platform's words, if any.
  public var description: String?
  /// `imsx_messageIdentifier` of the response.
  public var messageIdentifier: String
  /// `imsx_messageRefIdentifier`: the request's identifier, when the platform echoes it.
  public var messageRefIdentifier: String?
  /// `imsx_operationRefIdentifier`: `replaceResult`, `readResult`, `deleteResult`, when given.
  public var operation: String?
  /// For `readResult`: the score read, `nil` when the cell is empty.
  public var score: Double?

  /// The namespace of Basic Outcomes messages.
  static let namespace = "http://www.imsglobal.org/services/ltiv1p1/xsd/imsoms_v1p0"

  /// An answer to `request` (or to a request that could not be read, `nil`).
  ///
  /// - Parameters:
  ///   - status: how it went.
  ///   - description: words for the tool's developer; no secret.
  ///   - request: the request answered, whose identifier and operation are echoed.
  ///   - score: for `readResult`, the score read.
  ///   - messageIdentifier: the response's own id; a random UUID by default.
  public init(
    status: Status, description: String?, answering request: LTIOutcomeRequest?, score: Double? = nil,
    messageIdentifier: String = UUID().uuidString
  ) {
    self.status = status
    self.description = description
    self.messageIdentifier = messageIdentifier
    messageRefIdentifier = request?.messageIdentifier
    operation = request?.operation.name
    self.score = score
  }

  /// Reads an outcome service's answer, within ``LTIOutcomeRequest/maximumXMLBytes``.
  ///
  /// - Throws: ``LTIError/malformedXML(_:)`` for XML that is malformed, too large or declares a
  ///   DOCTYPE; ``LTIError/unsupportedOutcome(_:)`` for XML that is not a POX response.
  public init(xml: Data) throws(LTIError) {
    var limits = BoundedXML.Limits()
    limits.maximumBytes = LTIOutcomeRequest.maximumXMLBytes
    let root = try BoundedXML.parse(xml, limits: limits)
    guard root.name == "imsx_POXEnvelopeResponse" else { throw .unsupportedOutcome("the root element is not imsx_POXEnvelopeResponse") }
    let info = root.at("imsx_POXHeader", "imsx_POXResponseHeaderInfo")
    guard let code = info?.text("imsx_statusInfo", "imsx_codeMajor") else { throw .unsupportedOutcome("the response has no imsx_codeMajor") }
    guard let status = Status(rawValue: code) else { throw .unsupportedOutcome("imsx_codeMajor \(LTIError.quoted(code)) is not a POX status") }
    self.status = status
    description = info?.text("imsx_statusInfo", "imsx_description").flatMap { $0.isEmpty ? nil : $0 }
    messageIdentifier = info?.text("imsx_messageIdentifier") ?? ""
    messageRefIdentifier = info?.text("imsx_statusInfo", "imsx_messageRefIdentifier")
    operation = info?.text("imsx_statusInfo", "imsx_operationRefIdentifier")
    let read = root.text("imsx_POXBody", "readResultResponse", "result", "resultScore", "textString")
    score = read.flatMap { $0.isEmpty ? nil : Double($0) }.flatMap { $0.isFinite ? $0 : nil }
  }

  /// The POX response envelope, UTF-8.
  public var xml: Data {
    let e = LTIMarkup.escape
    var body = ""
    if let operation {
      if operation == "readResult", status == .success {
        let text = score.map(LTIScore.text) ?? ""
        body =
          "<readResultResponse><result><resultScore><language>en</language><textString>\(text)</textString></resultScore></result>"
          + "</readResultResponse>"
      } else {
        body = "<\(e(operation))Response/>"
      }
    }
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <imsx_POXEnvelopeResponse xmlns="\(Self.namespace)"><imsx_POXHeader><imsx_POXResponseHeaderInfo>\
      <imsx_version>V1.0</imsx_version><imsx_messageIdentifier>\(e(messageIdentifier))</imsx_messageIdentifier><imsx_statusInfo>\
      <imsx_codeMajor>\(status.rawValue)</imsx_codeMajor><imsx_severity>\(status == .success ? "status" : "error")</imsx_severity>\
      <imsx_description>\(e(description ?? ""))</imsx_description>\
      <imsx_messageRefIdentifier>\(e(messageRefIdentifier ?? ""))</imsx_messageRefIdentifier>\
      <imsx_operationRefIdentifier>\(e(operation ?? ""))</imsx_operationRefIdentifier></imsx_statusInfo>\
      </imsx_POXResponseHeaderInfo></imsx_POXHeader><imsx_POXBody>\(body)</imsx_POXBody></imsx_POXEnvelopeResponse>
      """
    return Data(text.utf8)
  }
}
