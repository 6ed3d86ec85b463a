import CommandLineSupport
import Foundation
import PercentEncoding

/// A one-shot HTTP server on 127.0.0.1 that receives the provider's redirect after the user
/// authorizes (`oauth1 login --callback loopback`): `GET /callback?oauth_token=...&oauth_verifier=...`.
///
/// It listens on the loopback interface only (``LoopbackListener``), so nothing outside the
/// machine can reach it. It takes only the callback for the request token being authorized:
/// another path (a browser's `/favicon.ico`) gets a 404, a callback for another token (or none:
/// a page on the machine poking the port) a 400, and it keeps waiting until the deadline.
final class LoopbackCallback: Sendable {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  private let listener: LoopbackListener

  /// The port it listens on (the one asked for, or one the system chose).
  var port: UInt16 { listener.port }

  /// The callback URL to give the provider.
  var url: String { "http://127.0.0.1:\(port)/callback" }

  /// Listens on 127.0.0.1:`port` (0: any free port).
  init(port: UInt16 = 0) throws {
    do {
      listener = try LoopbackListener(port: port)
    } catch {
      throw Failure(description: error.description + (port == 0 ? "" : "; choose another --callback-port"))
    }
  }

  func close() { listener.close() }

  /// Waits up to `timeout` seconds for the callback of the request token `token` (its
  /// `oauth_token`) and returns its query fields (`oauth_verifier`, or `denied`).
  func waitForCallback(token: String, timeout: Double) async throws -> [String: String] {
    try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread {
        continuation.resume(with: Result { try self.accept(token: token, until: Date().addingTimeInterval(timeout)) })
      }
    }
  }

  private func accept(token: String, until deadline: Date) throws -> [String: String] {
    while true {
      guard let connection = listener.accept(until: deadline) else {
        throw Failure(description: "no callback arrived in time; authorize sooner, or use --callback oob")
      }
      defer { connection.close() }
      // At most 16 KiB of head, for at most 5 s: a client that trickles bytes cannot hold it.
      guard let head = connection.readHead(until: min(deadline, Date().addingTimeInterval(5)), limit: 16_384), head.method == "GET"
      else { continue }
      let path = head.target.prefix { $0 != "?" }
      guard path == "/callback" else {
        Self.answer(connection, status: "404 Not Found", text: "Not the callback.")
        continue
      }
      var fields: [String: String] = [:]
      for (name, value) in PercentEncoding.decodeForm(head.target.dropFirst(path.count + 1)) { fields[name] = value }
      // X answers a refusal with `denied=<token>` instead of `oauth_token`.
      guard fields["oauth_token"] == token || (fields["oauth_token"] == nil && fields["denied"] == token) else {
        Self.answer(connection, status: "400 Bad Request", text: "Not the callback of the authorization this login started.")
        continue
      }
      let done = fields["oauth_verifier"] != nil
      Self.answer(
        connection, status: "200 OK",
        text: done ? "Authorized. You can close this window and go back to the terminal." : "The authorization was not completed.")
      return fields
    }
  }

  private static func answer(_ connection: LoopbackListener.Connection, status: String, text: String) {
    let body = "<!doctype html><meta charset=utf-8><title>oauth1</title><p>\(text)</p>\n"
    connection.answer(status: status, contentType: "text/html; charset=utf-8", body: Data(body.utf8))
  }
}
