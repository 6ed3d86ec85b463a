/// Canvas's result data: what the learner submitted, shown beside the grade in SpeedGrader.
/// Send it only in the kinds the launch announced (``LTIOutcomeService/acceptedResultData``).
///
/// ```swift
/// let request = try LTIOutcomeRequest.replaceResult(sourcedID: id, score: 0.8, resultData: .url("https://tool.example.edu/essays/7"))
/// ```
public enum LTIResultData: Sendable, Hashable, Codable {
  /// Text (or simple HTML) the learner submitted: `<resultData><text>`.
  case text(String)
  /// A URL of the submission: `<resultData><url>`.
  case url(String)
  /// A URL the platform launches with LTI to show the submission: `<resultData><ltiLaunchUrl>`.
  case ltiLaunchURL(String)

  /// The element name inside `<resultData>`.
  var elementName: String {
    switch self {
    case .text: "text"
    case .url: "url"
    case .ltiLaunchURL: "ltiLaunchUrl"
    }
  }

  /// The value sent.
  var value: String {
    switch self {
    case .text(let value), .url(let value), .ltiLaunchURL(let value): value
    }
  }
}
