import DateFormats
import Foundation

/// An X List: a curated group of accounts, with its owner, counts and privacy, as
/// `GET /2/lists/:id` and the user's list reads return it (with the `list.fields`
/// ``XClient/V2/defaultListFields``).
///
/// ```swift
/// let list = try await client.v2.list(id: "1500")
/// print(list.name, list.memberCount ?? 0, list.isPrivate == true ? "private" : "public")
/// ```
public struct XList: Sendable, Hashable, Codable {
  /// X's id of the list.
  public let id: String
  /// Its name (1 to 25 characters).
  public let name: String
  /// Its description, when it has one and `list.fields` asked for it.
  public let description: String?
  /// The id of the account that owns it.
  public let ownerID: String?
  /// Whether only its owner sees it.
  public let isPrivate: Bool?
  /// How many accounts follow it.
  public let followerCount: Int?
  /// How many accounts are in it.
  public let memberCount: Int?
  /// When it was created.
  public let createdAt: Date?

  /// A list from its parts, for tests and emulators.
  public init(
    id: String, name: String, description: String? = nil, ownerID: String? = nil, isPrivate: Bool? = nil, followerCount: Int? = nil,
    memberCount: Int? = nil, createdAt: Date? = nil
  ) {
    self.id = id
    self.name = name
    self.description = description
    self.ownerID = ownerID
    self.isPrivate = isPrivate
    self.followerCount = followerCount
    self.memberCount = memberCount
    self.createdAt = createdAt
  }

  enum CodingKeys: String, CodingKey {
    case id, name, description
    case ownerID = "owner_id"
    case isPrivate = "private"
    case followerCount = "follower_count"
    case memberCount = "member_count"
    case createdAt = "created_at"
  }

  /// X's JSON (`created_at` in RFC 3339, with or without milliseconds).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    name = try container.decode(String.self, forKey: .name)
    description = try container.decodeIfPresent(String.self, forKey: .description)
    ownerID = try container.decodeIfPresent(String.self, forKey: .ownerID)
    isPrivate = try container.decodeIfPresent(Bool.self, forKey: .isPrivate)
    followerCount = try container.decodeIfPresent(Int.self, forKey: .followerCount)
    memberCount = try container.decodeIfPresent(Int.self, forKey: .memberCount)
    createdAt = try container.decodeIfPresent(String.self, forKey: .createdAt).flatMap(RFC3339.date(from:))
  }

  /// The same keys, `created_at` in RFC 3339; absent values left out.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(name, forKey: .name)
    try container.encodeIfPresent(description, forKey: .description)
    try container.encodeIfPresent(ownerID, forKey: .ownerID)
    try container.encodeIfPresent(isPrivate, forKey: .isPrivate)
    try container.encodeIfPresent(followerCount, forKey: .followerCount)
    try container.encodeIfPresent(memberCount, forKey: .memberCount)
    try container.encodeIfPresent(createdAt.map(RFC3339.string(from:)), forKey: .createdAt)
  }
}
