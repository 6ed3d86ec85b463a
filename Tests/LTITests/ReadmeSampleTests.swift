import Foundation
import LTI
import Loopback
import OAuth1
import TestSupport
import Testing

/// The README's LTI sample, compiled and run: a launch signed by the library's platform side,
/// whose outcome service is an ``LTIOutcomesReceiver`` on loopback HTTP. The lines between the
/// markers are the README's text (a test checks it).
func readmeLTISample(launchURL: String, formBody: Data) async throws {
  // README sample begins
  let verifier = LTILaunchVerifier(secrets: ["lms-key": "lms-secret"])  // HMAC-SHA1/256, nonces, ±5 min
  let launch = try await verifier.verify(method: "POST", url: launchURL, body: formBody)
  if let outcomes = launch.outcomeService, launch.roles.isLearner {
    let client = LTIOutcomesClient(consumer: Credentials(key: "lms-key", secret: "lms-secret"))
    _ = try await client.replaceResult(at: outcomes.url, sourcedID: outcomes.resultSourcedID, score: 0.92)
  }
  // README sample ends
}

@Suite("README: the LTI sample", .tags(.processes), .tier(.processes))
struct ReadmeLTISampleTests {
  @Test func theSampleVerifiesALaunchAndItsGradeIsRecorded() async throws {
    let grades = GradeBook()
    let receiver = LTIOutcomesReceiver(secrets: ["lms-key": "lms-secret"])
    let service = try LoopbackHTTPServer { (request: LoopbackHTTPServer.Request) async -> LoopbackHTTPServer.Response in
      let url = "http://\(request.header("host") ?? "")\(request.target)"
      let (status, xml) = await receiver.answer(method: request.method, url: url, body: request.body, headers: request.headers) {
        grades.record($0)
      }
      return .init(status: status, headers: [("Content-Type", "application/xml")], body: xml)
    }
    var launch = LTILaunchParameters(resourceLinkID: "week-1")
    launch.userID = "student-7"
    launch.roles = ["Learner"]
    launch.outcome = (url: service.baseURL.absoluteString + "/outcomes", sourcedID: "week-1:student-7")
    let url = "https://tool.example.edu/launch"
    let form = try LTISignedForm.sign(url: url, parameters: launch.parameters, consumer: Credentials(key: "lms-key", secret: "lms-secret"))
    try await readmeLTISample(launchURL: url, formBody: form.body)
    #expect(grades.scores == ["week-1:student-7": 0.92])
  }

  @Test func theREADMEShowsThisCode() throws {
    let sample = try DocumentedSample(in: #filePath, from: "// README sample begins\n", to: "  // README sample ends")
    #expect(try sample.documentsNotShowingIt(["README.md"]).isEmpty)
  }
}
