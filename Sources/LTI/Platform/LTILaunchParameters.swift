import OAuth1

/// The fields of a basic launch a platform sends (what an LMS puts in the form), to be signed
/// with ``LTISignedForm/sign(url:parameters:consumer:signatureMethod:clock:)``.
///
/// ```swift
/// var launch = LTILaunchParameters(resourceLinkID: "week-1")
/// launch.userID = "student-7"
/// launch.roles = ["Learner"]
/// launch.outcome = (url: "https://lms.example.edu/grades", sourcedID: "week-1:student-7")
/// let form = try LTISignedForm.sign(url: toolURL, parameters: launch.parameters, consumer: credentials)
/// ```
public struct LTILaunchParameters: Sendable {
  /// `resource_link_id`, required.
  public var resourceLinkID: String
  /// `lti_message_type`; a basic launch by default.
  public var messageType: LTIMessageType = .basicLaunch
  /// `user_id`.
  public var userID: String?
  /// `roles`, each in any spelling (`Instructor`, `urn:lti:role:ims/lis/Learner`).
  public var roles: [String] = []
  /// `context_id`.
  public var contextID: String?
  /// `lis_outcome_service_url` and `lis_result_sourcedid`: where the tool sends this user's grade.
  public var outcome: (url: String, sourcedID: String)?
  /// `launch_presentation_return_url`.
  public var returnURL: String?
  /// `custom_*`, by name without the prefix.
  public var custom: [(name: String, value: String)] = []
  /// Any other field, by full name (`lis_person_name_full`, `ext_…`, `content_item_return_url`…).
  public var extra: [(name: String, value: String)] = []

  /// A launch of `resourceLinkID`.
  public init(resourceLinkID: String) {
    self.resourceLinkID = resourceLinkID
  }

  /// The form fields, without the `oauth_*` ones the signature adds.
  public var parameters: [OAuthParameter] {
    var fields = [
      OAuthParameter("lti_message_type", messageType.rawValue), OAuthParameter("lti_version", "LTI-1p0"),
      OAuthParameter("resource_link_id", resourceLinkID),
    ]
    if let userID { fields.append(OAuthParameter("user_id", userID)) }
    if !roles.isEmpty { fields.append(OAuthParameter("roles", roles.joined(separator: ","))) }
    if let contextID { fields.append(OAuthParameter("context_id", contextID)) }
    if let outcome {
      fields.append(OAuthParameter("lis_outcome_service_url", outcome.url))
      fields.append(OAuthParameter("lis_result_sourcedid", outcome.sourcedID))
    }
    if let returnURL { fields.append(OAuthParameter("launch_presentation_return_url", returnURL)) }
    fields += custom.map { OAuthParameter("custom_" + $0.name, $0.value) }
    fields += extra.map { OAuthParameter($0.name, $0.value) }
    return fields
  }
}
