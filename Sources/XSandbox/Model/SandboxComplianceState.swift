import Foundation

/// What X's batch compliance knows in the sandbox: the events of posts and accounts (set
/// through `/_control/compliance`, and a post deleted through the API), the app's jobs, and
/// every transfer of a job's ids or results, with whether it carried a credential (on the API
/// host; the other origin logs every header of its own requests).
struct SandboxComplianceState: Sendable {
  /// Where a job's URLs point: X's API host, with the app's bearer token (X's integration guide
  /// today), or presigned storage URLs on the sandbox's other origin (``SandboxOffsite``), with
  /// none (X's older flow). Storage needs the other origin served: in process, jobs use the API host.
  enum URLs: String, Sendable { case api, storage }

  /// One job.
  struct Job: Sendable {
    let id: String
    let type: String
    let name: String?
    let created: Int64
    /// The upload URL's secret.
    let secret: String
    var status: String
    /// The ids as uploaded, one per line.
    var upload: Data?
    /// Status polls left before an uploaded job completes.
    var pollsLeft: Int
    /// The results, fixed when the job completes.
    var results: Data?
    /// On the other origin, when its URLs point there: the upload's path, its presigned target
    /// (path and signature, made once), and the results' path.
    var storage: (upload: String, presigned: String, results: String)?
  }

  /// One request to an upload or download URL.
  struct Transfer: Sendable {
    let job: String
    let kind: String
    let authorization: Bool
    let status: Int
  }

  var urls = URLs.api
  /// Status polls an uploaded job answers `in_progress` before it is `complete`.
  var processingPolls = 1
  /// Events by post id: `deleted`, `protected`, `suspended`, `deactivated`, `bounced`, `scrub_geo`, `edited`.
  var postEvents: [String: (event: String, at: Int64)] = [:]
  /// Events by account id: `deleted`, `protected`, `suspended`, `deactivated`.
  var userEvents: [String: (event: String, at: Int64)] = [:]
  var jobs: [Job] = []
  var nextJob: UInt64 = 1_950_000_000_000_000_000
  var transfers: [Transfer] = []

  /// How long an upload URL lives (X: about 15 minutes) and a download URL (about 7 days).
  static let uploadLifetime: Int64 = 15 * 60
  static let downloadLifetime: Int64 = 7 * 24 * 3600
  /// The most bytes of ids one upload takes (X: 128 MB; the sandbox's memory is smaller).
  static let maxUploadBytes = 16 << 20
}
