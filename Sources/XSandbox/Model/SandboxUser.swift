/// An account of the sandbox.
struct SandboxUser: Sendable {
  let id: String
  let username: String
  let name: String
  let createdAt: Int64
  /// How many accounts follow it; ``SandboxData/followerIDs(of:)`` lists them.
  let followers: Int
  /// How many accounts it follows; ``SandboxData/followingIDs(of:)`` lists them.
  let following: Int
  let description: String
  /// The place the profile gives, if any.
  var location: String? = nil
  var protected = false
}
