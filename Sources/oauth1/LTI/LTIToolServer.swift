import CommandLineSupport
import Foundation
import LTI
import Loopback
import NetworkClient
import OAuth1

/// `oauth1 lti tool`: the library's worked example, a minimal LTI 1.1 tool on 127.0.0.1. Each
/// POST is a launch, verified by `LTILaunchVerifier` and answered with the typed launch as JSON;
/// `POST /grade` sends a grade with `LTIOutcomesClient` to the outcome service of the launch
/// that carried its sourcedid.
final class LTIToolServer: Sendable {
  private let verifier: LTILaunchVerifier
  private let outcomes: LTIOutcomesClient
  /// The outcome service URL of each sourcedid launches carried (the newest launch wins).
  private let services = Locked<[String: String]>([:])
  private let port: Locked<UInt16> = Locked(0)

  init(credentials: Credentials) {
    verifier = LTILaunchVerifier(secrets: [credentials.key: credentials.secret])
    outcomes = LTIOutcomesClient(consumer: credentials)
  }

  static func run(_ parsed: ParsedArguments, credentials: Credentials) async throws -> Int32 {
    let tool = LTIToolServer(credentials: credentials)
    let server: LoopbackHTTPServer
    do {
      server = try LoopbackHTTPServer(port: try parsed.value(ServeCommand.port)) { request in await tool.respond(to: request) }
    } catch {
      throw InputFiles.Failure(description: "\(error); choose another --port (0 picks a free one)")
    }
    tool.port.withLock { $0 = server.port }
    Output.stdout("Serving an LTI 1.1 tool at \(server.baseURL.absoluteString)\n")
    Output.stderr(
      "Launch it with POST \(server.baseURL.absoluteString)/launch; send a grade with POST /grade (sourcedid, score). Stop it with Ctrl-C.")
    try await LTIServing.hold(server, untilStdinCloses: parsed[ServeCommand.untilStdinCloses])
  }

  func respond(to request: LoopbackHTTPServer.Request) async -> LoopbackHTTPServer.Response {
    guard request.method == "POST" else {
      return LoopbackProvider.json(405, ["error": "POST a launch to any path, or a grade to /grade"])
    }
    if request.target == "/grade" { return await grade(request) }
    let url = LTIServing.url(of: request, port: port.withLock { $0 })
    do {
      let launch = try await verifier.verify(method: request.method, url: url, body: request.body, headers: request.headers)
      if let service = launch.outcomeService {
        services.withLock { services in
          if services.count >= LTIPlatformServer.kept { services.removeAll() }
          services[service.resultSourcedID] = service.url
        }
      }
      return LTIServing.json(200, launch)
    } catch {
      return LoopbackProvider.json(error.httpStatus, ["error": error.description])
    }
  }

  private func grade(_ request: LoopbackHTTPServer.Request) async -> LoopbackHTTPServer.Response {
    let fields = LTIServing.fields(String(decoding: request.body, as: UTF8.self))
    guard let sourcedID = fields["sourcedid"], let scoreText = fields["score"] else {
      return LoopbackProvider.json(400, ["error": "POST /grade takes the form fields sourcedid and score"])
    }
    guard let score = Double(scoreText) else { return LoopbackProvider.json(400, ["error": LTIError.invalidScore(scoreText).description]) }
    guard let service = services.withLock({ $0[sourcedID] }) else {
      return LoopbackProvider.json(404, ["error": "no launch carried this sourcedid with an outcome service"])
    }
    do {
      let answer = try await outcomes.replaceResult(at: service, sourcedID: sourcedID, score: score)
      return LoopbackProvider.json(
        answer.status == .success ? 200 : 502, ["status": answer.status.rawValue, "description": answer.description ?? ""])
    } catch {
      return LoopbackProvider.json(error.httpStatus, ["error": error.description])
    }
  }
}
