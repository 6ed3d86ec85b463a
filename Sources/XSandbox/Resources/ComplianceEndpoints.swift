import DateFormats
import Foundation

/// Batch compliance (`x-api/compliance/batch-compliance/*.mdx`), app-only as X serves it: jobs
/// created, listed and polled; the ids uploaded with one `PUT` and the results downloaded as
/// JSON lines, at URLs on the API host (with the bearer token) or, when
/// `/_control/compliance` says `"urls": "storage"`, at presigned URLs on the sandbox's other
/// origin (``SandboxOffsite``: a `PUT` of the ids with the URL's signature, a `GET` of the
/// results, no credential needed), as X's older flow put them on Google Cloud Storage.
extension SandboxRoute {
  static let compliance: [SandboxRoute] = [
    SandboxRoute(
      method: "POST", pattern: ["2", "compliance", "jobs"], name: "v2_compliance_jobs_create", limit: 150, appOnly: true, allowed: []
    ) { $0.v2CreateComplianceJob($1) },
    SandboxRoute(
      method: "GET", pattern: ["2", "compliance", "jobs"], name: "v2_compliance_jobs", limit: 150, appOnly: true,
      allowed: ["type", "status", "compliance_job.fields"]
    ) { state, ctx in state.v2ComplianceJobs(ctx) },
    SandboxRoute(
      method: "GET", pattern: ["2", "compliance", "jobs", "*"], name: "v2_compliance_job", limit: 150, appOnly: true,
      allowed: ["compliance_job.fields"]
    ) { $0.v2ComplianceJob($1) },
    SandboxRoute(
      method: "PUT", pattern: ["2", "compliance", "jobs", "*", "upload"], name: "v2_compliance_upload", limit: nil, appOnly: true,
      allowed: ["token"]
    ) {
      $0.complianceTransfer(
        kind: "upload", job: $1.captures.first ?? "", secret: $1.query["token"] ?? "", body: $1.body, now: $1.now, credentialed: true)
    },
    SandboxRoute(
      method: "GET", pattern: ["2", "compliance", "jobs", "*", "download"], name: "v2_compliance_download", limit: nil, appOnly: true,
      allowed: ["token"]
    ) {
      $0.complianceTransfer(
        kind: "download", job: $1.captures.first ?? "", secret: $1.query["token"] ?? "", body: nil, now: $1.now, credentialed: true)
    },
  ]
}

// MARK: - Handlers (lock held)

extension SandboxState {
  /// `POST /2/compliance/jobs` with `{"type": "tweets"|"users", "name"?: …}`: X allows one
  /// active job of each type (409 while one is created or in progress).
  mutating func v2CreateComplianceJob(_ ctx: RouteContext) -> SandboxResponse {
    guard mediaType(ctx.contentType) == "application/json" else { return .v2(400, XBodies.jsonRequired) }
    guard let body = ctx.body, let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
      let type = object["type"] as? String, ["tweets", "users"].contains(type)
    else { return .v2(400, XBodies.invalidBody("$.type: must be one of [tweets, users]")) }
    expireComplianceJobs(now: ctx.now)
    if compliance.jobs.contains(where: { $0.type == type && ["created", "in_progress"].contains($0.status) }) {
      return .v2(
        409,
        XBodies.problem(
          title: "Conflict", detail: "A compliance job of type \(type) is already active.",
          type: "https://api.twitter.com/2/problems/conflict", status: 409))
    }
    compliance.nextJob += 1
    var job = SandboxComplianceState.Job(
      id: String(compliance.nextJob), type: type, name: object["name"] as? String, created: ctx.now,
      secret: UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased(), status: "created", upload: nil,
      pollsLeft: compliance.processingPolls, results: nil)
    if compliance.urls == .storage, let offsite = ctx.offsite, offsite.baseURL != nil {
      let folder = "/storage.googleapis.com/twttr-\(type)-compliance/\(job.id)"
      job.storage = (folder + "/submission.txt", offsite.presign(folder + "/submission.txt"), folder + "/results.json")
    }
    compliance.jobs.append(job)
    return .v2(200, .object([("data", complianceJobJSON(job, ctx: ctx))]))
  }

  /// `GET /2/compliance/jobs/:id`: the job; an uploaded one is `in_progress` for
  /// `processingPolls` polls, then `complete` with its results fixed.
  mutating func v2ComplianceJob(_ ctx: RouteContext) -> SandboxResponse {
    expireComplianceJobs(now: ctx.now)
    collectStorageUploads(ctx)
    guard let index = compliance.jobs.firstIndex(where: { $0.id == ctx.captures.first }) else {
      return .v2(
        200,
        XBodies.notFound(
          ctx.captures.first ?? "", resourceType: "compliance_job", parameter: "id",
          detail: "Could not find compliance job with id: [\(ctx.captures.first ?? "")]."))
    }
    if compliance.jobs[index].status == "in_progress" {
      if compliance.jobs[index].pollsLeft > 0 {
        compliance.jobs[index].pollsLeft -= 1
      } else {
        let results = complianceResults(compliance.jobs[index], now: ctx.now)
        compliance.jobs[index].results = results
        compliance.jobs[index].status = "complete"
        if let storage = compliance.jobs[index].storage { ctx.offsite?.store(results, at: storage.results) }
      }
    }
    return .v2(200, .object([("data", complianceJobJSON(compliance.jobs[index], ctx: ctx))]))
  }

  /// `GET /2/compliance/jobs?type=…[&status=…]`: the app's jobs of a type, newest first.
  mutating func v2ComplianceJobs(_ ctx: RouteContext) -> SandboxResponse {
    guard let type = ctx.query["type"], ["tweets", "users"].contains(type) else {
      let value = ctx.query["type"] ?? ""
      return .v2(400, XBodies.invalidRequest("type", [value], "The `type` query parameter value [\(value)] is not one of [tweets, users]"))
    }
    expireComplianceJobs(now: ctx.now)
    collectStorageUploads(ctx)
    let status = ctx.query["status"]
    let jobs = compliance.jobs.reversed().filter { $0.type == type && (status == nil || $0.status == status) }
    var out: [(String, JSON)] = []
    if !jobs.isEmpty { out.append(("data", .array(jobs.map { complianceJobJSON($0, ctx: ctx) }))) }
    out.append(("meta", .object([("result_count", .int(jobs.count))])))
    return .v2(200, .object(out))
  }

  /// An upload (`PUT`, plain text, one id per line) or a download of a job, checked against
  /// its secret and its window; logged with whether it carried a credential.
  mutating func complianceTransfer(
    kind: String, job id: String, secret: String, body: Data?, now: Int64, credentialed: Bool
  ) -> SandboxResponse {
    expireComplianceJobs(now: now)
    let response = complianceTransferAnswer(kind: kind, job: id, secret: secret, body: body, now: now)
    compliance.transfers.append(.init(job: id, kind: kind, authorization: credentialed, status: response.status))
    return response
  }

  private mutating func complianceTransferAnswer(kind: String, job id: String, secret: String, body: Data?, now: Int64) -> SandboxResponse {
    let forbidden = SandboxResponse.v2(
      403, XBodies.problem(title: "Forbidden", detail: "The URL's token is not valid for this operation.", status: 403))
    guard let index = compliance.jobs.firstIndex(where: { $0.id == id }),
      SandboxServer.constantTimeEquals(Array(compliance.jobs[index].secret.utf8), Array(secret.utf8))
    else { return forbidden }
    let job = compliance.jobs[index]
    if kind == "upload" {
      guard job.status == "created" || job.status == "in_progress" else { return forbidden }
      guard now < job.created + SandboxComplianceState.uploadLifetime else { return forbidden }
      let body = body ?? Data()
      guard body.count <= SandboxComplianceState.maxUploadBytes else {
        return .v2(413, XBodies.problem(title: "Payload Too Large", detail: "The upload exceeds the limit.", status: 413))
      }
      compliance.jobs[index].upload = body
      compliance.jobs[index].status = "in_progress"
      compliance.jobs[index].pollsLeft = compliance.processingPolls
      return SandboxResponse(status: 200, contentType: "text/plain", body: Data())
    }
    guard job.status == "complete", let results = job.results, now < job.created + SandboxComplianceState.downloadLifetime else {
      return forbidden
    }
    return SandboxResponse(status: 200, contentType: "application/json", body: results)
  }

  /// Takes the ids a job's presigned upload left on the other origin (within its window): the
  /// job is then in progress, as on the API host's upload.
  mutating func collectStorageUploads(_ ctx: RouteContext) {
    guard let offsite = ctx.offsite else { return }
    for index in compliance.jobs.indices where compliance.jobs[index].status == "created" {
      let job = compliance.jobs[index]
      guard let storage = job.storage, ctx.now < job.created + SandboxComplianceState.uploadLifetime, let ids = offsite.file(at: storage.upload)
      else { continue }
      compliance.jobs[index].upload = ids
      compliance.jobs[index].status = "in_progress"
      compliance.jobs[index].pollsLeft = compliance.processingPolls
      let credentialed = offsite.requests.entries.contains { request in
        request.target.hasPrefix(storage.upload) && request.headers.contains { Self.isCredential($0) }
      }
      compliance.transfers.append(.init(job: job.id, kind: "upload", authorization: credentialed, status: 200))
    }
  }

  /// Whether a header carries a credential: an `Authorization`, or the app's token anywhere.
  static func isCredential(_ header: (name: String, value: String)) -> Bool {
    header.name.lowercased() == "authorization" || header.value.contains(XSandbox.demoBearerToken)
  }

  /// Jobs whose upload window lapsed before an upload, or whose results' window lapsed, expire.
  mutating func expireComplianceJobs(now: Int64) {
    for index in compliance.jobs.indices {
      let job = compliance.jobs[index]
      if job.status == "created" && now >= job.created + SandboxComplianceState.uploadLifetime
        || job.status == "complete" && now >= job.created + SandboxComplianceState.downloadLifetime
      {
        compliance.jobs[index].status = "expired"
      }
    }
  }

  /// A job as X's `ComplianceJob`, its URLs on the API host (`ctx.origin`) or on storage.
  func complianceJobJSON(_ job: SandboxComplianceState.Job, ctx: RouteContext) -> JSON {
    func time(_ seconds: Int64) -> JSON { .string(RFC3339.millisecondString(from: Date(timeIntervalSince1970: TimeInterval(seconds)))) }
    func url(_ kind: String) -> String {
      guard let storage = job.storage, let base = ctx.offsite?.baseURL?.absoluteString else {
        return "\(ctx.origin)/2/compliance/jobs/\(job.id)/\(kind)?token=\(job.secret)"
      }
      // A presigned upload (one PUT with the URL's signature); the results, read by path.
      return base + (kind == "upload" ? storage.presigned : storage.results + "?X-Goog-Signature=\(job.secret)")
    }
    var pairs: [(String, JSON)] = [("id", .string(job.id)), ("type", .string(job.type))]
    if let name = job.name { pairs.append(("name", .string(name))) }
    pairs += [
      ("created_at", time(job.created)), ("status", .string(job.status)), ("resumable", .bool(false)),
      ("upload_url", .string(url("upload"))), ("upload_expires_at", time(job.created + SandboxComplianceState.uploadLifetime)),
      ("download_url", .string(url("download"))), ("download_expires_at", time(job.created + SandboxComplianceState.downloadLifetime)),
    ]
    return .object(pairs)
  }

  /// A job's results: one JSON line for each uploaded id that has an event (its own, or for a
  /// post its author's), an `invalid_id` error for a line that is not an id; the rest clean.
  func complianceResults(_ job: SandboxComplianceState.Job, now: Int64) -> Data {
    var out = Data()
    func time(_ seconds: Int64) -> String { RFC3339.millisecondString(from: Date(timeIntervalSince1970: TimeInterval(seconds))) }
    for line in String(decoding: job.upload ?? Data(), as: UTF8.self).split(whereSeparator: \.isNewline) {
      let id = line.trimmingCharacters(in: .whitespaces)
      if id.isEmpty { continue }
      var object: [(String, JSON)]
      if !id.allSatisfy(\.isASCII) || !id.allSatisfy(\.isNumber) || id.count > 19 {
        object = [("id", .string(id)), ("error", .string("invalid_id"))]
      } else {
        let created: Int64?
        let found: (event: String, at: Int64)?
        if job.type == "tweets" {
          let post = tweet(id: id)
          created = post?.createdAt
          found = compliance.postEvents[id] ?? post.flatMap { compliance.userEvents[$0.authorID] }
        } else {
          created = SandboxData.usersByID[id]?.createdAt
          found = compliance.userEvents[id]
        }
        guard let found else { continue }
        let action =
          switch found.event {
          case "scrub_geo": "scrub_geo"
          case "edited": "rehydrate"
          default: "delete"
          }
        object = [("id", .string(id)), ("action", .string(action)), ("reason", .string(found.event))]
        if let created { object.append(("created_at", .string(time(created)))) }
        object.append(("redacted_at", .string(time(found.at))))
        if action == "delete" { object.append(("deleted_at", .string(time(found.at)))) }
      }
      out.append(JSON.object(object).encoded())
      out.append(UInt8(ascii: "\n"))
    }
    return out
  }
}
