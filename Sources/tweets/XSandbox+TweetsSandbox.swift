import TweetsCore
import XSandbox

/// XSandbox is the offline X API of `tweets --sandbox` and `tweets sandbox serve`: main.swift
/// hands its type to TweetsCore, which does not depend on it.
extension XSandbox: TweetsSandbox {
  /// The shortest control API token ``SandboxServer`` takes.
  package static var minimumControlTokenLength: Int { SandboxServer.minimumControlTokenLength }

  /// A sandbox on the system clock, with X's settings and `streamRules`.
  package static func inProcess(streamRules: [(value: String, tag: String?)]) -> XSandbox {
    XSandbox(streamRules: streamRules)
  }

  /// A ``SandboxServer`` of a new sandbox; the control API's verdict header goes with the
  /// control API.
  package static func serve(_ settings: TweetsSandboxSettings) throws -> any TweetsSandboxServer {
    let spelling: SandboxSpelling = settings.postSpelling ? .post : .tweet
    return try SandboxServer(
      sandbox: XSandbox(
        tweetsPerUser: settings.tweetsPerUser, controlAPI: settings.controlAPI, oauth2Lifetime: settings.oauth2Lifetime,
        rateWindow: settings.rateWindow, streamTimeScale: settings.streamTimeScale, credits: settings.credits, postCap: settings.postCap,
        spelling: spelling),
      port: settings.port, sendsVerdicts: settings.controlAPI, controlToken: settings.controlToken,
      exchangeLog: try settings.exchangeLog.map { file throws in try SandboxExchangeLog(file: file, spelling: spelling) })
  }
}

extension SandboxServer: TweetsSandboxServer {}
