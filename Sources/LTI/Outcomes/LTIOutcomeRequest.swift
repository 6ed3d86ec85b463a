import Foundation

/// One Basic Outcomes request (LTI 1.1, section 6): replace, read or delete the grade in one
/// gradebook cell, as the POX XML envelope the platform's outcome service takes.
///
/// The constructors check what they are given, so that a wrong grade is refused before it is
/// sent: a score must be a finite number from 0 to 1.
///
/// ```swift
/// let request = try LTIOutcomeRequest.replaceResult(sourcedID: launch.outcomeService!.resultSourcedID, score: 0.92)
/// let xml = request.xml  // <?xml …?><imsx_POXEnvelopeRequest …><replaceResultRequest>…0.92…
/// ```
public struct LTIOutcomeRequest: Sendable, Hashable {
  /// What the request does.
  public enum Operation: Sendable, Hashable {
    /// Sets the grade: a score in 0…1 (or none, with Canvas's total score or result data),
    /// Canvas's result data, total score in points, and submission time (ISO 8601).
    case replaceResult(score: Double?, resultData: LTIResultData?, totalScore: Double?, submittedAt: String?)
    /// Reads the grade back.
    case readResult
    /// Clears the grade.
    case deleteResult

    /// The operation's POX name: `replaceResult`, `readResult`, `deleteResult`.
    public var name: String {
      switch self {
      case .replaceResult: "replaceResult"
      case .readResult: "readResult"
      case .deleteResult: "deleteResult"
      }
    }
  }

  /// What the request does.
  public var operation: Operation
  /// `lis_result_sourcedid`: the gradebook cell.
  public var sourcedID: String
  /// `imsx_messageIdentifier`: unique per message; the response refers to it.
  public var messageIdentifier: String

  /// A request that sets the grade in `sourcedID`'s cell.
  ///
  /// - Parameters:
  ///   - sourcedID: the launch's `lis_result_sourcedid`.
  ///   - score: from 0 to 1; `nil` only with `totalScore` or `resultData` (Canvas).
  ///   - resultData: Canvas's submission data, in a kind the launch accepts.
  ///   - totalScore: Canvas's score in points, instead of `score`.
  ///   - submittedAt: Canvas's submission time, ISO 8601.
  ///   - messageIdentifier: a unique id; a random UUID by default.
  /// - Throws: ``LTIError/invalidScore(_:)`` for a score not finite or outside 0…1 (or a negative
  ///   total), ``LTIError/missingParameter(_:)`` for an empty sourced id or nothing to set.
  public static func replaceResult(
    sourcedID: String, score: Double?, resultData: LTIResultData? = nil, totalScore: Double? = nil, submittedAt: String? = nil,
    messageIdentifier: String = UUID().uuidString
  ) throws(LTIError) -> LTIOutcomeRequest {
    guard !sourcedID.isEmpty else { throw .missingParameter("lis_result_sourcedid") }
    guard score != nil || totalScore != nil || resultData != nil else { throw .missingParameter("a score, total score or result data") }
    let score = try score.map { (value: Double) throws(LTIError) in try LTIScore.checked(value) }
    let total = try totalScore.map { (value: Double) throws(LTIError) in try LTIScore.checkedTotal(value) }
    return LTIOutcomeRequest(
      operation: .replaceResult(score: score, resultData: resultData, totalScore: total, submittedAt: submittedAt), sourcedID: sourcedID,
      messageIdentifier: messageIdentifier)
  }

  /// A request that reads the grade in `sourcedID`'s cell.
  public static func readResult(sourcedID: String, messageIdentifier: String = UUID().uuidString) throws(LTIError) -> LTIOutcomeRequest {
    guard !sourcedID.isEmpty else { throw .missingParameter("lis_result_sourcedid") }
    return LTIOutcomeRequest(operation: .readResult, sourcedID: sourcedID, messageIdentifier: messageIdentifier)
  }

  /// A request that clears the grade in `sourcedID`'s cell.
  public static func deleteResult(sourcedID: String, messageIdentifier: String = UUID().uuidString) throws(LTIError) -> LTIOutcomeRequest {
    guard !sourcedID.isEmpty else { throw .missingParameter("lis_result_sourcedid") }
    return LTIOutcomeRequest(operation: .deleteResult, sourcedID: sourcedID, messageIdentifier: messageIdentifier)
  }

  private init(operation: Operation, sourcedID: String, messageIdentifier: String) {
    self.operation = operation
    self.sourcedID = sourcedID
    self.messageIdentifier = messageIdentifier
  }

  /// The POX envelope, UTF-8, as sent (and as `oauth_body_hash` covers it).
  public var xml: Data {
    let e = LTIMarkup.escape
    var record = "<resultRecord><sourcedGUID><sourcedId>\(e(sourcedID))</sourcedId></sourcedGUID>"
    var details = ""
    if case .replaceResult(let score, let resultData, let totalScore, let submittedAt) = operation {
      record += "<result>"
      if let score { record += "<resultScore><language>en</language><textString>\(LTIScore.text(score))</textString></resultScore>" }
      if let totalScore {
        record += "<resultTotalScore><language>en</language><textString>\(LTIScore.text(totalScore))</textString></resultTotalScore>"
      }
      if let resultData { record += "<resultData><\(resultData.elementName)>\(e(resultData.value))</\(resultData.elementName)></resultData>" }
      record += "</result>"
      if let submittedAt { details = "<submissionDetails><submittedAt>\(e(submittedAt))</submittedAt></submissionDetails>" }
    }
    record += "</resultRecord>"
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <imsx_POXEnvelopeRequest xmlns="\(LTIOutcomeResponse.namespace)"><imsx_POXHeader><imsx_POXRequestHeaderInfo>\
      <imsx_version>V1.0</imsx_version><imsx_messageIdentifier>\(e(messageIdentifier))</imsx_messageIdentifier>\
      </imsx_POXRequestHeaderInfo></imsx_POXHeader><imsx_POXBody><\(operation.name)Request>\(record)\(details)</\(operation.name)Request>\
      </imsx_POXBody></imsx_POXEnvelopeRequest>
      """
    return Data(text.utf8)
  }

  /// Reads a request a tool sent (the platform's side), within ``maximumXMLBytes``.
  ///
  /// - Throws: ``LTIError/malformedXML(_:)`` for XML that is malformed, too large or declares a
  ///   DOCTYPE; ``LTIError/unsupportedOutcome(_:)`` for another operation (the platform answers
  ///   `unsupported`); ``LTIError/invalidScore(_:)``; ``LTIError/missingParameter(_:)``.
  public init(xml: Data) throws(LTIError) {
    var limits = BoundedXML.Limits()
    limits.maximumBytes = Self.maximumXMLBytes
    let root = try BoundedXML.parse(xml, limits: limits)
    guard root.name == "imsx_POXEnvelopeRequest" else { throw .unsupportedOutcome("the root element is not imsx_POXEnvelopeRequest") }
    let identifier = root.text("imsx_POXHeader", "imsx_POXRequestHeaderInfo", "imsx_messageIdentifier") ?? ""
    guard let body = root.child("imsx_POXBody"), let message = body.children.first else {
      throw .unsupportedOutcome("the envelope has no request in its body")
    }
    guard message.name.hasSuffix("Request") else { throw .unsupportedOutcome("\(LTIError.quoted(message.name)) is not a request") }
    let name = String(message.name.dropLast("Request".count))
    guard let sourcedID = message.text("resultRecord", "sourcedGUID", "sourcedId"), !sourcedID.isEmpty else {
      throw .missingParameter("sourcedId")
    }
    switch name {
    case "replaceResult":
      let result = message.at("resultRecord", "result")
      let score = try result?.text("resultScore", "textString").map { (text: String) throws(LTIError) in try LTIScore.parse(text) }
      let total = try result?.text("resultTotalScore", "textString").map { (text: String) throws(LTIError) in
        guard let points = Double(text) else { throw LTIError.invalidScore(LTIError.quoted(text)) }
        return try LTIScore.checkedTotal(points)
      }
      let data = result?.child("resultData")?.children.first.flatMap { element -> LTIResultData? in
        let value = element.text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch element.name {
        case "text": return .text(element.text)
        case "url": return .url(value)
        case "ltiLaunchUrl": return .ltiLaunchURL(value)
        default: return nil
        }
      }
      let submittedAt = message.text("submissionDetails", "submittedAt")
      self = try .replaceResult(
        sourcedID: sourcedID, score: score, resultData: data, totalScore: total, submittedAt: submittedAt, messageIdentifier: identifier)
    case "readResult": self.init(operation: .readResult, sourcedID: sourcedID, messageIdentifier: identifier)
    case "deleteResult": self.init(operation: .deleteResult, sourcedID: sourcedID, messageIdentifier: identifier)
    default: throw .unsupportedOutcome("the operation \(LTIError.quoted(name)) is not a Basic Outcomes one")
    }
  }

  /// The size of a request's XML read at most: 64 KiB (a grade with Canvas's result text fits).
  public static let maximumXMLBytes = 64 * 1024
}
