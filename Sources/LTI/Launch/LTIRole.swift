import Foundation

/// One role of the launching user, read from the `roles` parameter in any of its spellings: the
/// short context form (`Instructor`), the full URNs (`urn:lti:role:ims/lis/Instructor`,
/// `urn:lti:instrole:ims/lis/Faculty`, `urn:lti:sysrole:ims/lis/SysAdmin`), with a sub-role
/// (`urn:lti:role:ims/lis/TeachingAssistant/Grader`), and the LIS v2 URIs some platforms send
/// to 1.1 tools (`http://purl.imsglobal.org/vocab/lis/v2/membership#Learner`).
///
/// Compare ``name`` and ``scope``, not the raw text: the same role arrives spelled differently
/// from Canvas, Moodle and Blackboard.
///
/// ```swift
/// let role = LTIRole("urn:lti:role:ims/lis/TeachingAssistant/Grader")
/// role.scope    // .context
/// role.name     // "TeachingAssistant"
/// role.subRole  // "Grader"
/// ```
public struct LTIRole: Sendable, Hashable, CustomStringConvertible {
  /// Where a role holds: in the course (context), the institution, or the platform (system).
  public enum Scope: String, Sendable, Hashable {
    /// A role in the course the launch comes from (`urn:lti:role:`, and the short forms).
    case context
    /// A role in the institution (`urn:lti:instrole:`).
    case institution
    /// A role on the platform itself (`urn:lti:sysrole:`).
    case system
  }

  /// The role as the platform sent it, trimmed.
  public let rawValue: String
  /// Where the role holds.
  public let scope: Scope
  /// The role's name without its prefix or sub-role: `Instructor`, `Learner`, `Administrator`…
  public let name: String
  /// The sub-role after the name (`Grader` in `…/TeachingAssistant/Grader`), if any.
  public let subRole: String?

  /// Reads one role in any of its spellings; an unknown prefix keeps the text as a context role's name.
  public init(_ text: String) {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    rawValue = trimmed
    var scope = Scope.context
    var path = Substring(trimmed)
    let prefixes: [(String, Scope)] = [
      ("urn:lti:role:ims/lis/", .context), ("urn:lti:instrole:ims/lis/", .institution), ("urn:lti:sysrole:ims/lis/", .system),
      ("http://purl.imsglobal.org/vocab/lis/v2/membership#", .context),
      ("http://purl.imsglobal.org/vocab/lis/v2/membership/", .context),
      ("http://purl.imsglobal.org/vocab/lis/v2/institution/person#", .institution),
      ("http://purl.imsglobal.org/vocab/lis/v2/system/person#", .system),
    ]
    if let (prefix, found) = prefixes.first(where: { trimmed.lowercased().hasPrefix($0.0.lowercased()) }) {
      path = path.dropFirst(prefix.count)
      scope = found
    }
    let parts = path.split(whereSeparator: { $0 == "/" || $0 == "#" }).map(String.init)
    self.scope = scope
    name = parts.first ?? ""
    subRole = parts.count > 1 ? parts[1] : nil
  }

  /// The full LTI 1.1 URN of the role: `urn:lti:role:ims/lis/Instructor` for `Instructor`.
  public var urn: String {
    let prefix =
      switch scope {
      case .context: "urn:lti:role:ims/lis/"
      case .institution: "urn:lti:instrole:ims/lis/"
      case .system: "urn:lti:sysrole:ims/lis/"
      }
    return prefix + name + (subRole.map { "/" + $0 } ?? "")
  }

  public var description: String { rawValue }

  /// Whether this role is `name` (compared ignoring case), in `scope` when one is given.
  public func `is`(_ name: String, in scope: Scope? = nil) -> Bool {
    self.name.caseInsensitiveCompare(name) == .orderedSame && (scope == nil || scope == self.scope)
  }

  /// The roles of a `roles` parameter: comma-separated, empty items dropped.
  public static func list(_ parameter: String) -> [LTIRole] {
    parameter.split(separator: ",").map { LTIRole(String($0)) }.filter { !$0.name.isEmpty }
  }
}

extension LTIRole: Codable {
  /// Reads a role from its text, as sent.
  public init(from decoder: any Decoder) throws {
    self.init(try decoder.singleValueContainer().decode(String.self))
  }

  /// Writes the role as sent.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}

extension [LTIRole] {
  /// Whether the user teaches the course: a context `Instructor` (or its institution form,
  /// `Instructor` or `Faculty`), as LMSs grant grading rights.
  public var isInstructor: Bool {
    contains { $0.is("Instructor", in: .context) || $0.is("Instructor", in: .institution) || $0.is("Faculty", in: .institution) }
  }
  /// Whether the user takes the course: a context `Learner` (or the institution's `Student` or `Learner`).
  public var isLearner: Bool {
    contains { $0.is("Learner", in: .context) || $0.is("Student", in: .institution) || $0.is("Learner", in: .institution) }
  }
  /// Whether the user is a teaching assistant in the course.
  public var isTeachingAssistant: Bool { contains { $0.is("TeachingAssistant", in: .context) } }
  /// Whether the user designs content in the course.
  public var isContentDeveloper: Bool { contains { $0.is("ContentDeveloper", in: .context) } }
  /// Whether the user mentors a learner (a parent, an advisor).
  public var isMentor: Bool { contains { $0.is("Mentor", in: .context) } }
  /// Whether the user administers the course, the institution or the platform (`SysAdmin` too).
  public var isAdministrator: Bool { contains { $0.is("Administrator") || $0.is("SysAdmin", in: .system) } }
}
