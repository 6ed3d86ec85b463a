import Foundation
import NetworkClient

/// X's batch compliance (`x-api/compliance/batch-compliance/*.mdx`), app-only: create a job,
/// upload its ids, wait for it, download what to do. X allows one active job of each type.
///
/// The upload and the download go to the URLs the job names, as they are: with the app's bearer
/// token when they are on the base URL's origin (X's API host, as X's integration guide now
/// says), with no credential anywhere else (the presigned storage URLs X described before).
///
/// ```swift
/// let app = XClient(authentication: .bearer(token))
/// var job = try await app.v2.createComplianceJob(type: .tweets, name: "archive")
/// try await app.v2.uploadComplianceIDs(for: job, file: idsFile)
/// while job.status != .complete { try await Task.sleep(for: .seconds(30)); job = try await app.v2.complianceJob(id: job.id) }
/// for line in try await app.v2.complianceResults(of: job) { print(line.id, line.event) }
/// ```
extension XClient.V2 {
  /// The most bytes X takes in one upload (`integrate.mdx`: 128 MB, about 6.5 million ids).
  public static let maxComplianceUploadBytes = 128_000_000

  /// `POST /2/compliance/jobs`: a new job of `type`, named `name` (X shows it in the job list).
  public func createComplianceJob(type: ComplianceJob.Kind, name: String? = nil) async throws(XError) -> ComplianceJob {
    struct Body: Encodable, Sendable {
      let type: String
      let name: String?
    }
    return try await job(
      Request(
        method: XEndpoint.createComplianceJobs.method, path: XEndpoint.createComplianceJobs.filled(),
        body: .json(Body(type: type.rawValue, name: name)), isIdempotent: false))
  }

  /// `GET /2/compliance/jobs/:id`: the job now (its status, and fresh URLs).
  public func complianceJob(id: String) async throws(XError) -> ComplianceJob {
    try await job(Request(path: XEndpoint.getComplianceJobsById.filled(id)))
  }

  /// `GET /2/compliance/jobs?type=`: the app's recent jobs of `type`, with `status` only those.
  public func complianceJobs(type: ComplianceJob.Kind, status: ComplianceJob.Status? = nil) async throws(XError) -> [ComplianceJob] {
    var query: [QueryItem] = [("type", type.rawValue)]
    if let status { query.append(("status", status.description)) }
    return try await client.send(Request<V2Envelope<[ComplianceJob]>>(path: XEndpoint.getComplianceJobs.filled(), query: query)).value.data ?? []
  }

  /// Uploads the ids in `file` (one per line, plain text) to the job's upload URL, streamed from
  /// disk: one `PUT`, which may be repeated while the URL lives (X has no partial uploads).
  public func uploadComplianceIDs(for job: ComplianceJob, file: URL) async throws(XError) {
    guard let url = job.uploadURL else { throw .notFound(message: "compliance job \(job.id) has no upload URL (status \(job.status))") }
    let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
    guard size <= Self.maxComplianceUploadBytes else {
      throw .api(
        status: 413, code: nil,
        message:
          "the ids file is \(size) bytes, more than the \(Self.maxComplianceUploadBytes) X takes in one compliance job: split the ids across jobs")
    }
    let request = Request<Data>(method: .put, path: "", body: .file(file, contentType: "text/plain"), isIdempotent: true)
    _ = try await client.sendHandedOut(request, to: url)
  }

  /// Downloads a complete job's results and reads them, in X's order. A line that is not a
  /// result fails the whole download (`XError.unexpectedResponse`), so nothing is half applied.
  /// The results are held whole: X lists only the ids that have an event, one line (about 200
  /// bytes) each, for at most the 6.5 million ids of one upload.
  public func complianceResults(of job: ComplianceJob) async throws(XError) -> [ComplianceResult] {
    guard let url = job.downloadURL else { throw .notFound(message: "compliance job \(job.id) has no download URL (status \(job.status))") }
    let response = try await client.sendHandedOut(Request<Data>(path: ""), to: url)
    let body = response.value
    var results: [ComplianceResult] = []
    var number = 0
    for line in body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      number += 1
      let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces.union(.init(charactersIn: "\r")))
      if text.isEmpty { continue }
      do throws(ComplianceResult.Malformed) {
        results.append(try ComplianceResult(line: text, number: number))
      } catch {
        throw .unexpectedResponse(status: response.response.statusCode, excerpt: error.description)
      }
    }
    return results
  }

  private func job(_ request: Request<V2Envelope<ComplianceJob>>) async throws(XError) -> ComplianceJob {
    let response = try await client.send(request)
    guard let job = response.value.data else {
      throw .notFound(message: response.value.errors?.first?.description ?? "X answered without a compliance job")
    }
    return job
  }
}
