import Foundation

extension XSandbox {
  /// `/_control/compliance`: what X's batch compliance will report. A body changes it first,
  /// then the state is answered:
  ///
  /// - `{"posts": {"ID": "deleted"|"protected"|"suspended"|"deactivated"|"bounced"|"scrub_geo"|"edited"}}`
  ///   sets posts' events; `{"users": {"ID": "deleted"|"protected"|"suspended"|"deactivated"}}`
  ///   sets accounts' (a tweets job reports a post of such an account with its event);
  /// - `{"urls": "api"|"storage"}`: where new jobs' URLs point (X's API host, or presigned
  ///   storage on the sandbox's other origin, when it is served);
  /// - `{"processing_polls": n}`: polls an uploaded job stays `in_progress` (at most n more
  ///   for the jobs in progress).
  ///
  /// The state: `jobs` (`id`, `type`, `status`, `uploads` of ids received, `ids`),
  /// `transfers` (`job`, `kind`, `authorization`: whether a credential came, `status`).
  func complianceControl(_ json: [String: Any]) -> (object: [String: Any], status: Int) {
    let known: Set = ["posts", "users", "urls", "processing_polls"]
    if let unknown = json.keys.sorted().first(where: { !known.contains($0) }) {
      return (["error": "unknown compliance field \(unknown); known: \(known.sorted().joined(separator: ", "))"], 400)
    }
    let postEvents: Set = ["deleted", "protected", "suspended", "deactivated", "bounced", "scrub_geo", "edited"]
    let userEvents: Set = ["deleted", "protected", "suspended", "deactivated"]
    let posts = json["posts"] as? [String: String] ?? [:]
    let users = json["users"] as? [String: String] ?? [:]
    if let bad = posts.first(where: { !postEvents.contains($0.value) }) ?? users.first(where: { !userEvents.contains($0.value) }) {
      return (["error": "\(bad.key): unknown event \(bad.value)"], 400)
    }
    var urls: SandboxComplianceState.URLs?
    if let raw = json["urls"] {
      guard let text = raw as? String, let value = SandboxComplianceState.URLs(rawValue: text) else {
        return (["error": "urls takes api or storage, not \(raw)"], 400)
      }
      urls = value
    }
    let now = clock.secondsSince1970()
    return state.withLock { state in
      for (id, event) in posts { state.compliance.postEvents[id] = (event, now) }
      for (id, event) in users { state.compliance.userEvents[id] = (event, now) }
      if let urls { state.compliance.urls = urls }
      if let polls = json["processing_polls"] as? Int {
        state.compliance.processingPolls = max(0, polls)
        for index in state.compliance.jobs.indices {
          state.compliance.jobs[index].pollsLeft = min(state.compliance.jobs[index].pollsLeft, max(0, polls))
        }
      }
      let jobs: [[String: Any]] = state.compliance.jobs.map { job in
        let ids = job.upload.map { String(decoding: $0, as: UTF8.self).split(whereSeparator: \.isNewline).count } ?? 0
        let uploads = state.compliance.transfers.filter { $0.job == job.id && $0.kind == "upload" && $0.status == 200 }.count
        return ["id": job.id, "type": job.type, "status": job.status, "ids": ids, "uploads": uploads]
      }
      let transfers: [[String: Any]] = state.compliance.transfers.map {
        ["job": $0.job, "kind": $0.kind, "authorization": $0.authorization, "status": $0.status]
      }
      return (["jobs": jobs, "transfers": transfers, "urls": state.compliance.urls.rawValue], 200)
    }
  }
}
