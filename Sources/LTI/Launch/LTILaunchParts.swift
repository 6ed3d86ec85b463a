/// The link the user clicked in the course: what the tool keys its state on (one resource link
/// is one placement of the tool, one gradebook column).
///
/// ```swift
/// let link = launch.resourceLink  // id "120988f929-274612", title "Weekly Blog"
/// ```
public struct LTIResourceLink: Sendable, Hashable, Codable {
  /// `resource_link_id`: unique per placement on the platform.
  public var id: String
  /// `resource_link_title`, if sent.
  public var title: String?
  /// `resource_link_description`, if sent.
  public var description: String?

  /// A link, as a platform describes it.
  public init(id: String, title: String? = nil, description: String? = nil) {
    self.id = id
    self.title = title
    self.description = description
  }
}

/// The launching user as the platform describes them (`user_id`, `lis_person_*`, `user_image`).
/// Every field is optional: an anonymous launch sends none.
///
/// ```swift
/// launch.user.id           // "292832126"
/// launch.user.email        // "user@school.edu"
/// ```
public struct LTIUser: Sendable, Hashable, Codable {
  /// `user_id`: stable and opaque, unique per platform; the key to store a user by.
  public var id: String?
  /// `lis_person_name_full`.
  public var fullName: String?
  /// `lis_person_name_given`.
  public var givenName: String?
  /// `lis_person_name_family`.
  public var familyName: String?
  /// `lis_person_contact_email_primary`.
  public var email: String?
  /// `lis_person_sourcedid`: the student information system's id.
  public var sourcedID: String?
  /// `user_image`: a URL of the user's picture.
  public var image: String?
}

/// The course the launch comes from (`context_*`).
///
/// ```swift
/// launch.context?.label  // "SI182"
/// ```
public struct LTIContext: Sendable, Hashable, Codable {
  /// `context_id`: unique per course on the platform.
  public var id: String
  /// `context_label`: the course's short name.
  public var label: String?
  /// `context_title`: the course's full name.
  public var title: String?
  /// `context_type`: `CourseSection`, `CourseOffering`, `Group`… (or their URNs).
  public var type: String?

  /// A course, as a platform describes it.
  public init(id: String, label: String? = nil, title: String? = nil, type: String? = nil) {
    self.id = id
    self.label = label
    self.title = title
    self.type = type
  }
}

/// Where and for what the tool sends this user's grade (Basic Outcomes): present only when the
/// platform expects a grade for this launch.
///
/// ```swift
/// if let outcomes = launch.outcomeService {
///   try await client.replaceResult(at: outcomes.url, sourcedID: outcomes.resultSourcedID, score: 0.9)
/// }
/// ```
public struct LTIOutcomeService: Sendable, Hashable, Codable {
  /// `lis_outcome_service_url`: where the POX messages go.
  public var url: String
  /// `lis_result_sourcedid`: the opaque id of this user's cell in this link's column.
  public var resultSourcedID: String
  /// Canvas's `ext_outcome_data_values_accepted`: the result data kinds accepted (`text`, `url`,
  /// `lti_launch_url`); empty when the platform did not say (then send none).
  public var acceptedResultData: [String]
  /// Canvas's `ext_outcome_result_total_score_accepted`: whether a total score (points) may be sent.
  public var acceptsTotalScore: Bool
  /// Canvas's `ext_outcome_submission_submitted_at_accepted`: whether a submission time may be sent.
  public var acceptsSubmittedAt: Bool
}

/// How the platform shows the tool and where to send the user back (`launch_presentation_*`).
///
/// ```swift
/// if let back = launch.presentation.returnURL { /* a "Done" button */ }
/// ```
public struct LTILaunchPresentation: Sendable, Hashable, Codable {
  /// `launch_presentation_return_url`: where to send the user when done (with `lti_msg` or `lti_errormsg`).
  public var returnURL: String?
  /// `launch_presentation_document_target`: `iframe`, `window`, `frame`, `popup`…
  public var documentTarget: String?
  /// `launch_presentation_locale`: the user's language (`en-US`).
  public var locale: String?
  /// `launch_presentation_width`, in pixels, as sent.
  public var width: String?
  /// `launch_presentation_height`, in pixels, as sent.
  public var height: String?
  /// `launch_presentation_css_url`: a stylesheet to look like the platform.
  public var cssURL: String?
}

/// The platform that launched (`tool_consumer_*`), to tell several installations apart.
///
/// ```swift
/// launch.toolConsumer.instanceGUID  // "lmsng.school.edu"
/// ```
public struct LTIToolConsumer: Sendable, Hashable, Codable {
  /// `tool_consumer_instance_guid`: unique per platform installation.
  public var instanceGUID: String?
  /// `tool_consumer_instance_name`.
  public var instanceName: String?
  /// `tool_consumer_instance_description`.
  public var instanceDescription: String?
  /// `tool_consumer_instance_url`.
  public var instanceURL: String?
  /// `tool_consumer_instance_contact_email`.
  public var contactEmail: String?
  /// `tool_consumer_info_product_family_code`: `canvas`, `moodle`, `desire2learn`, `learn` (Blackboard)…
  public var productFamilyCode: String?
  /// `tool_consumer_info_version`.
  public var version: String?
}
