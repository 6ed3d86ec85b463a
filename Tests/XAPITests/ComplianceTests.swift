import Foundation
import NetworkClient
import NetworkClientTesting
import Testing
import XAPI

/// Batch compliance, typed, against a stub transport: the job as X's quickstart shows it, the
/// results in X's two documented forms, hostile result lines, and the rule that decides where
/// credentials go: only to the base URL's origin, whatever URL X's answer names.
@Suite("X: batch compliance, typed")
struct ComplianceTests {
  /// The job object of X's quickstart (`batch-compliance/quickstart.mdx`), with the expiry
  /// fields of the integration guide.
  static func job(upload: String, download: String, status: String = "created") -> String {
    #"""
    {"data": {"id": "1234567890", "type": "tweets", "name": "my-compliance-job", "status": "\#(status)",
     "upload_url": "\#(upload)", "download_url": "\#(download)", "created_at": "2024-01-15T10:00:00.000Z",
     "upload_expires_at": "2024-01-15T10:15:00.000Z", "download_expires_at": "2024-01-22T10:00:00.000Z"}}
    """#
  }

  @Test("a job: created with X's JSON body, decoded as X's quickstart shows it")
  func createAndDecode() async throws {
    let stub = StubTransport([
      .json(Self.job(upload: "https://storage.googleapis.com/u?X-Goog-Signature=s", download: "https://storage.googleapis.com/d"))
    ])
    let client = XClient(authentication: .bearer("app-token"), transport: stub, retry: nil)
    let job = try await client.v2.createComplianceJob(type: .tweets, name: "my-compliance-job")
    #expect(job.id == "1234567890" && job.type == .tweets && job.status == .created && job.name == "my-compliance-job")
    #expect(job.uploadURL?.host == "storage.googleapis.com")
    #expect(job.uploadExpiresAt == ISO8601DateFormatter().date(from: "2024-01-15T10:15:00Z"))
    let request = try #require(stub.requests.first)
    #expect(request.method == .post && request.url.path == "/2/compliance/jobs")
    let body = try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: String]
    #expect(body == ["type": "tweets", "name": "my-compliance-job"])
  }

  @Test("presigned URLs get no credential, URLs on the API's origin get the bearer token; the query is sent as written")
  func credentialsGoOnlyToTheConfiguredOrigin() async throws {
    let ids = FileManager.default.temporaryDirectory.appendingPathComponent("compliance-ids-\(UUID()).txt")
    try Data("20\n21\n".utf8).write(to: ids)
    defer { try? FileManager.default.removeItem(at: ids) }
    let presigned = "https://storage.googleapis.com/twttr-compliance/up?X-Goog-Signature=a%2Fb%2B%3D&X-Goog-Expires=900"
    let onAPI = "https://api.x.com/2/compliance/jobs/1234567890/upload?token=t%2F1"
    let stub = StubTransport(fallback: .status(200))
    let client = XClient(authentication: .bearer("app-token"), transport: stub, retry: nil)
    for url in [presigned, onAPI] {
      let job = ComplianceJob(id: "1", type: .tweets, status: .created, uploadURL: URL(string: url)!)
      try await client.v2.uploadComplianceIDs(for: job, file: ids)
    }
    let requests = stub.requests
    #expect(requests.count == 2)
    #expect(requests[0].url.absoluteString == presigned && requests[1].url.absoluteString == onAPI)
    #expect(requests[0].headers["Authorization"] == nil)
    #expect(requests[1].headers["Authorization"] == "Bearer app-token")
    #expect(requests.allSatisfy { $0.method == .put && $0.headers["Content-Type"] == "text/plain" && $0.bodyFile == ids })
    // The ids file is the caller's: still there after the request.
    #expect(FileManager.default.fileExists(atPath: ids.path))
    // Another port, scheme or host is another origin.
    #expect(!client.isOwnOrigin(URL(string: "https://api.x.com:8443/x")!))
    #expect(!client.isOwnOrigin(URL(string: "http://api.x.com/x")!))
    #expect(client.isOwnOrigin(URL(string: "https://API.x.com:443/2/x")!))
  }

  @Test("results in today's form and in the older storage flow's, as X's pages show them")
  func resultForms() throws {
    // quickstart.mdx, "Result format".
    let today = try ComplianceResult(
      line:
        #"{"id": "1234567890", "action": "delete", "created_at": "2024-01-10T12:00:00.000Z", "redacted_at": "2024-01-12T08:30:00.000Z", "reason": "deleted"}"#
    )
    #expect(today.id == "1234567890" && today.action == .delete && today.event == "deleted" && today.redactedAt != nil)
    // integrate.mdx: the three actions, deleted_at as an alias, an invalid line.
    #expect(try ComplianceResult(line: #"{"id":"5","action":"rehydrate"}"#).action == .rehydrate)
    #expect(try ComplianceResult(line: #"{"id":"5","action":"scrub_geo"}"#).action == .scrubGeo)
    #expect(try ComplianceResult(line: #"{"id":"5","action":"delete","reason":"scrub_geo"}"#).action == .scrubGeo)
    #expect(try ComplianceResult(line: #"{"id":"5","action":"delete","deleted_at":"2024-01-12T08:30:00.000Z"}"#).redactedAt != nil)
    let invalid = try ComplianceResult(line: #"{"id": "not_a_valid_id", "error": "invalid_id"}"#)
    #expect(invalid.error == "invalid_id" && invalid.action == nil)
    // The older form: a reason and no action.
    let legacy = try ComplianceResult(line: #"{"id":"9","reason":"suspended","created_at":"2021-01-01T00:00:00.000Z"}"#)
    #expect(legacy.action == .delete && legacy.event == "suspended")
    // Written back in today's form, read again: the same result.
    #expect(try ComplianceResult(line: today.jsonLine) == today)
  }

  @Test("hostile result lines are refused with their line number, in time linear in their length")
  func hostileLines() {
    let cases = [
      String(repeating: "a", count: ComplianceResult.maxLineBytes + 1), "not json", "[1,2]", #"{"action":"delete"}"#,
      #"{"id":"1"}"#, #"{"id":"1","action":"explode"}"#, #"{"id":{"x":1},"action":"delete"}"#,
      "{" + String(repeating: "[", count: 3000),
    ]
    for (number, line) in cases.enumerated() {
      #expect(throws: ComplianceResult.Malformed.self) { try ComplianceResult(line: line, number: number + 1) }
      do {
        _ = try ComplianceResult(line: line, number: number + 1)
      } catch {
        #expect(error.line == number + 1 && error.description.contains("line \(number + 1)"))
      }
    }
  }

  @Test("a download with a malformed line fails whole, naming the line; no half result")
  func malformedDownload() async throws {
    let stub = StubTransport([.status(200, body: Data("{\"id\":\"1\",\"action\":\"delete\",\"reason\":\"deleted\"}\n\nnot json\n".utf8))])
    let client = XClient(authentication: .bearer("app-token"), transport: stub, retry: nil)
    let job = ComplianceJob(id: "1", type: .tweets, status: .complete, downloadURL: URL(string: "https://storage.example/r?sig=x")!)
    await #expect {
      _ = try await client.v2.complianceResults(of: job)
    } throws: { error in
      "\(error)".contains("line 3")
    }
    #expect(stub.requests.first?.headers["Authorization"] == nil)
  }
}
