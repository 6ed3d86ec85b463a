/// Where a t.co link of the fixtures leads.
struct SandboxLink: Sendable {
  let expanded: String
  let display: String
}
