import DateFormats
import Foundation

/// One of X's batch compliance jobs (`x-api/compliance/batch-compliance/*.mdx`): a list of
/// post or user ids the app uploads, and X's answer, for each id that needs it, of what a stored
/// copy must do to follow what its author did since (deleted, protected, suspended, deactivated).
/// X's developer terms require stored datasets to follow these events.
///
/// ```swift
/// let job = try await app.v2.createComplianceJob(type: .tweets, name: "climate archive")
/// print(job.id, job.status, job.uploadExpiresAt ?? Date())
/// ```
public struct ComplianceJob: Sendable, Hashable, Decodable {
  /// What a job checks.
  public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
    /// Post ids.
    case tweets
    /// User ids.
    case users
  }

  /// Where a job is: `created` waits for its upload, `in_progress` is being checked, `complete`
  /// has results to download (for about seven days), `failed` and `expired` never will.
  public enum Status: Sendable, Hashable, Decodable, CustomStringConvertible {
    /// Waiting for the ids (the upload URL works for about 15 minutes).
    case created
    /// The ids arrived; X is checking them.
    case inProgress
    /// The results can be downloaded.
    case complete
    /// X could not check the ids.
    case failed
    /// The upload or the results' window lapsed.
    case expired
    /// A status this release does not know, as X wrote it.
    case other(String)

    /// X's word for the status.
    public var description: String {
      switch self {
      case .created: "created"
      case .inProgress: "in_progress"
      case .complete: "complete"
      case .failed: "failed"
      case .expired: "expired"
      case .other(let text): text
      }
    }

    /// The status X's word names.
    public init(_ text: String) {
      switch text {
      case "created": self = .created
      case "in_progress": self = .inProgress
      case "complete": self = .complete
      case "failed": self = .failed
      case "expired": self = .expired
      default: self = .other(text)
      }
    }

    /// Decodes X's word.
    public init(from decoder: any Decoder) throws {
      self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// Whether the job can still end with results: created or in progress.
    public var isActive: Bool { self == .created || self == .inProgress }
  }

  /// X's id of the job (digits).
  public let id: String
  /// Posts or users.
  public let type: Kind
  /// The name the job was created with, if any.
  public let name: String?
  /// Where the job is.
  public let status: Status
  /// Where the ids go (one `PUT` of plain text, one id per line). X has described it both as a
  /// presigned storage URL (no credentials) and as a URL on its API host (with the app's bearer
  /// token): it is a secret either way, never logged.
  public let uploadURL: URL?
  /// Until when ``uploadURL`` works.
  public let uploadExpiresAt: Date?
  /// Where the results are, once ``status`` is ``Status/complete``; a secret like ``uploadURL``.
  public let downloadURL: URL?
  /// Until when ``downloadURL`` works.
  public let downloadExpiresAt: Date?
  /// When the job was created.
  public let createdAt: Date?
  /// Whether the upload may be resumed (X's older storage flow).
  public let resumable: Bool?

  /// A job from its parts, for tests and emulators.
  public init(
    id: String, type: Kind, name: String? = nil, status: Status, uploadURL: URL? = nil, uploadExpiresAt: Date? = nil,
    downloadURL: URL? = nil, downloadExpiresAt: Date? = nil, createdAt: Date? = nil, resumable: Bool? = nil
  ) {
    self.id = id
    self.type = type
    self.name = name
    self.status = status
    self.uploadURL = uploadURL
    self.uploadExpiresAt = uploadExpiresAt
    self.downloadURL = downloadURL
    self.downloadExpiresAt = downloadExpiresAt
    self.createdAt = createdAt
    self.resumable = resumable
  }

  enum CodingKeys: String, CodingKey {
    case id, type, name, status, resumable
    case uploadURL = "upload_url"
    case uploadExpiresAt = "upload_expires_at"
    case downloadURL = "download_url"
    case downloadExpiresAt = "download_expires_at"
    case createdAt = "created_at"
  }

  /// Decodes X's `ComplianceJob`; its times are RFC 3339 strings.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    type = try container.decode(Kind.self, forKey: .type)
    name = try container.decodeIfPresent(String.self, forKey: .name)
    status = try container.decode(Status.self, forKey: .status)
    uploadURL = try container.decodeIfPresent(String.self, forKey: .uploadURL).flatMap(URL.init(string:))
    downloadURL = try container.decodeIfPresent(String.self, forKey: .downloadURL).flatMap(URL.init(string:))
    func time(_ key: CodingKeys) throws -> Date? { try container.decodeIfPresent(String.self, forKey: key).flatMap(RFC3339.date(from:)) }
    uploadExpiresAt = try time(.uploadExpiresAt)
    downloadExpiresAt = try time(.downloadExpiresAt)
    createdAt = try time(.createdAt)
    resumable = try container.decodeIfPresent(Bool.self, forKey: .resumable)
  }
}
