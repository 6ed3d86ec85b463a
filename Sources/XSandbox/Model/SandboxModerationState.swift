/// The accounts each user blocks and mutes, the most recent first. X sells blocking writes to
/// Enterprise only (since 2026-04-20), and the package reads only: the demo user starts with
/// two fans blocked and three muted, so that a fresh sandbox has something to list.
struct SandboxModerationState: Sendable {
  var blocked: [String: [String]] = [SandboxData.mainUserID: ["2000013", "2000007"]]
  var muted: [String: [String]] = [SandboxData.mainUserID: ["2000021", "2000014", "2000003"]]
}
