import OAuth1

/// A verified LTI 1.1 launch, typed: who (``user``, ``roles``), from where (``context``,
/// ``toolConsumer``), for which link (``resourceLink``), where the grade goes
/// (``outcomeService``), how to show the tool (``presentation``), and the platform's
/// `custom_*` and `ext_*` parameters.
///
/// Get one from ``LTILaunchVerifier``, which checks the OAuth signature first: the fields here
/// are only as trustworthy as that check. ``init(parameters:consumerKey:signatureMethod:accepting:)``
/// reads parameters verified some other way.
///
/// ```swift
/// let launch = try await verifier.verify(method: "POST", url: url, body: body)
/// if launch.roles.isInstructor { showSettings() }
/// print(launch.user.id ?? "anonymous", launch.custom["chapter"] ?? "-")
/// ```
public struct LTILaunch: Sendable, Hashable, Codable {
  /// `lti_message_type`.
  public var messageType: LTIMessageType
  /// `lti_version`: `LTI-1p0` (LTI 1.1 and 1.2 launches send it too).
  public var version: String
  /// The `oauth_consumer_key` the launch was signed with: which platform (and secret) sent it.
  public var consumerKey: String
  /// The signature method the launch was verified with.
  public var signatureMethod: String
  /// The link launched; `nil` only for a Content-Item selection request, which has none.
  public var resourceLink: LTIResourceLink?
  /// The launching user.
  public var user: LTIUser
  /// The user's roles, in the order sent; ask `roles.isInstructor`, `roles.isLearner`…
  public var roles: [LTIRole]
  /// The course, when the launch comes from one.
  public var context: LTIContext?
  /// Where to send this user's grade, when the platform expects one.
  public var outcomeService: LTIOutcomeService?
  /// How the platform shows the tool, and where to send the user back.
  public var presentation: LTILaunchPresentation
  /// The platform installation.
  public var toolConsumer: LTIToolConsumer
  /// What a Content-Item selection request asks for; `nil` for a basic launch.
  public var contentItemRequest: LTIContentItemRequest?
  /// The `custom_*` parameters, by name without the prefix (`custom_chapter` → `chapter`).
  public var custom: [String: String]
  /// The `ext_*` parameters, by name without the prefix (`ext_lms` → `lms`).
  public var extensions: [String: String]
  /// Every signed parameter but the `oauth_*` ones, by name (the first, when a name repeats).
  public var parameters: [String: String]

  /// Reads a launch from its signed parameters (the `oauth_*` ones are ignored).
  ///
  /// - Parameters:
  ///   - parameters: the launch's form (and query) parameters, decoded.
  ///   - consumerKey: the consumer key the parameters were verified with.
  ///   - signatureMethod: the method they were verified with.
  ///   - accepting: the message types taken; others are ``LTIError/wrongMessageType(_:)``.
  /// - Throws: ``LTIError/missingParameter(_:)`` for an absent `lti_message_type`, `lti_version`,
  ///   `resource_link_id` (basic launch) or `content_item_return_url` (selection request);
  ///   ``LTIError/wrongMessageType(_:)``; ``LTIError/unsupportedVersion(_:)``.
  public init(
    parameters: [OAuthParameter], consumerKey: String, signatureMethod: String = "HMAC-SHA1",
    accepting: Set<LTIMessageType> = [.basicLaunch, .contentItemSelectionRequest]
  ) throws(LTIError) {
    var values: [String: String] = [:]
    for parameter in parameters where !parameter.name.hasPrefix("oauth_") && values[parameter.name] == nil {
      values[parameter.name] = parameter.value
    }
    func value(_ name: String) -> String? { values[name].flatMap { $0.isEmpty ? nil : $0 } }
    func required(_ name: String) throws(LTIError) -> String {
      guard let found = value(name) else { throw .missingParameter(name) }
      return found
    }
    func flag(_ name: String) -> Bool { value(name)?.lowercased() == "true" }
    func list(_ name: String) -> [String] {
      value(name)?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } ?? []
    }

    let typeName = try required("lti_message_type")
    guard let type = LTIMessageType(rawValue: typeName), accepting.contains(type) else { throw .wrongMessageType(typeName) }
    let version = try required("lti_version")
    guard version == "LTI-1p0" else { throw .unsupportedVersion(version) }
    messageType = type
    self.version = version
    self.consumerKey = consumerKey
    self.signatureMethod = signatureMethod

    if type == .basicLaunch {
      resourceLink = LTIResourceLink(
        id: try required("resource_link_id"), title: value("resource_link_title"), description: value("resource_link_description"))
      contentItemRequest = nil
    } else {
      resourceLink = value("resource_link_id").map {
        LTIResourceLink(id: $0, title: value("resource_link_title"), description: value("resource_link_description"))
      }
      contentItemRequest = LTIContentItemRequest(
        returnURL: try required("content_item_return_url"), acceptMediaTypes: list("accept_media_types"),
        acceptPresentationDocumentTargets: list("accept_presentation_document_targets"), acceptMultiple: flag("accept_multiple"),
        acceptUnsigned: flag("accept_unsigned"), autoCreate: flag("auto_create"), data: values["data"], title: value("title"),
        text: value("text"))
    }
    user = LTIUser(
      id: value("user_id"), fullName: value("lis_person_name_full"), givenName: value("lis_person_name_given"),
      familyName: value("lis_person_name_family"), email: value("lis_person_contact_email_primary"),
      sourcedID: value("lis_person_sourcedid"), image: value("user_image"))
    roles = value("roles").map(LTIRole.list) ?? []
    context = value("context_id").map {
      LTIContext(id: $0, label: value("context_label"), title: value("context_title"), type: value("context_type"))
    }
    if let url = value("lis_outcome_service_url"), let sourcedID = value("lis_result_sourcedid") {
      outcomeService = LTIOutcomeService(
        url: url, resultSourcedID: sourcedID, acceptedResultData: list("ext_outcome_data_values_accepted"),
        acceptsTotalScore: flag("ext_outcome_result_total_score_accepted"),
        acceptsSubmittedAt: flag("ext_outcome_submission_submitted_at_accepted"))
    } else {
      outcomeService = nil
    }
    presentation = LTILaunchPresentation(
      returnURL: value("launch_presentation_return_url"), documentTarget: value("launch_presentation_document_target"),
      locale: value("launch_presentation_locale"), width: value("launch_presentation_width"),
      height: value("launch_presentation_height"), cssURL: value("launch_presentation_css_url"))
    toolConsumer = LTIToolConsumer(
      instanceGUID: value("tool_consumer_instance_guid"), instanceName: value("tool_consumer_instance_name"),
      instanceDescription: value("tool_consumer_instance_description"), instanceURL: value("tool_consumer_instance_url"),
      contactEmail: value("tool_consumer_instance_contact_email"), productFamilyCode: value("tool_consumer_info_product_family_code"),
      version: value("tool_consumer_info_version"))
    custom = Self.prefixed("custom_", in: values)
    extensions = Self.prefixed("ext_", in: values)
    self.parameters = values
  }

  /// The values whose names start with `prefix`, by name without it.
  private static func prefixed(_ prefix: String, in values: [String: String]) -> [String: String] {
    var found: [String: String] = [:]
    for (name, value) in values where name.hasPrefix(prefix) && name.count > prefix.count {
      found[String(name.dropFirst(prefix.count))] = value
    }
    return found
  }
}
