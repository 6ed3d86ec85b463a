import CommandLineSupport
import Foundation
import LTI
import NetworkClient
import OAuth1

/// `oauth1 lti launch URL`: acts as the learning platform: signs a basic launch with
/// `LTISignedForm` and POSTs it to the tool (printing the tool's status and answer), or prints
/// the auto-submitting form a browser would post.
enum LTILaunchAction {
  static func run(_ parsed: ParsedArguments, url: String, credentials: Credentials) async throws -> Int32 {
    var launch = LTILaunchParameters(resourceLinkID: parsed[LTICommand.resourceLinkID] ?? "link-1")
    launch.userID = parsed[LTICommand.userID] ?? "student-1"
    launch.roles = (parsed[LTICommand.roles] ?? "Learner").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    launch.contextID = parsed[LTICommand.contextID]
    switch (parsed[LTICommand.outcomeURL], parsed[LTICommand.sourcedID]) {
    case (let outcomeURL?, let sourcedID?): launch.outcome = (url: outcomeURL, sourcedID: sourcedID)
    case (nil, nil): break
    default: throw UsageError("--outcome-url and --sourcedid go together")
    }
    for pair in parsed[LTICommand.custom] {
      guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
        throw UsageError("--custom takes NAME=VALUE, not \(CommandSpec.shown(pair))")
      }
      launch.custom.append((name: String(pair[..<equals]), value: String(pair[pair.index(after: equals)...])))
    }
    let method = try LTICommand.signatureMethod(parsed)
    let signed: Result<LTISignedForm, LTIError> = Result { () throws(LTIError) in
      try LTISignedForm.sign(url: url, parameters: launch.parameters, consumer: credentials, signatureMethod: method)
    }
    guard case .success(let form) = signed else {
      if case .failure(let error) = signed { throw UsageError(error.description) }
      return 2
    }
    if parsed[LTICommand.form] {
      Output.stdout(form.html)
      return 0
    }
    guard let target = URL(string: url) else { throw UsageError("the launch URL \(CommandSpec.shown(url)) is not a URL") }
    let client = NetworkClient(baseURL: target)
    let response: HTTPResponse
    do {
      response = try await client.send(
        Request<HTTPResponse>(
          method: .post, path: "", body: .data(form.body, contentType: "application/x-www-form-urlencoded"), isIdempotent: false))
    } catch {
      guard case .httpStatus(let failure) = error else { throw error }
      Output.stdout("HTTP \(failure.statusCode)\n" + String(decoding: failure.body, as: UTF8.self) + "\n")
      return 1
    }
    Output.stdout("HTTP \(response.statusCode)\n" + response.text + (response.text.hasSuffix("\n") ? "" : "\n"))
    return 0
  }
}
