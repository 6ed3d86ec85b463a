/// The `lti_message_type` values an LTI 1.1 tool receives by launch.
///
/// ```swift
/// let launch = try await verifier.verify(method: "POST", url: url, body: body, accepting: [.contentItemSelectionRequest])
/// ```
public enum LTIMessageType: String, Sendable, Hashable, Codable, CaseIterable {
  /// `basic-lti-launch-request`: a user opened a resource link.
  case basicLaunch = "basic-lti-launch-request"
  /// `ContentItemSelectionRequest`: the platform asks the user to pick content in the tool.
  case contentItemSelectionRequest = "ContentItemSelectionRequest"
}
