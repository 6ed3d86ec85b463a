import Foundation
import NetworkClient
import OAuth1
import XAPI

/// The offline X API behind `tweets --sandbox` and `tweets sandbox serve`, as `tweets` uses it:
/// a transport that answers in process, its demo credentials, and a server over loopback HTTP.
/// The `tweets` executable hands the emulator's type to ``TweetsCLI/run(_:environment:terminal:sandbox:)``,
/// so that TweetsCore does not depend on the emulator (nor build it for its own tests).
///
/// ```swift
/// extension XSandbox: TweetsSandbox { ... }
/// let status = await TweetsCLI.run(arguments, environment: env, terminal: .standard(environment: env), sandbox: XSandbox.self)
/// ```
package protocol TweetsSandbox: HTTPTransport {
  /// The demo app's consumer key and secret, used when no other is given.
  static var demoConsumer: Credentials { get }
  /// The demo account's access token, used when no other is given.
  static var demoAccessToken: Credentials { get }
  /// The demo OAuth 2.0 client, used when no other is given.
  static var demoOAuth2Client: Credentials { get }
  /// The shortest control API token ``serve(_:)`` takes.
  static var minimumControlTokenLength: Int { get }

  /// A sandbox in this process for one command, whose filtered stream starts with `streamRules`
  /// (values and tags).
  static func inProcess(streamRules: [(value: String, tag: String?)]) -> Self

  /// A new sandbox served over HTTP on 127.0.0.1, as `settings` say, until the process ends.
  /// Throws when the port cannot be listened on (the error describes why).
  static func serve(_ settings: TweetsSandboxSettings) throws -> any TweetsSandboxServer

  /// The PIN the sandbox's authorize page shows for a request token, or `nil` for an unknown one:
  /// what `tweets --sandbox login` prints, as there is no browser to show the page.
  func pin(forRequestToken token: String) -> String?
}

/// How `tweets sandbox serve` asks for its server: the port, the data, the control API.
package struct TweetsSandboxSettings: Sendable {
  /// The port on 127.0.0.1; 0 for any free one.
  package var port: UInt16
  /// How many tweets each of the sandbox's accounts has.
  package var tweetsPerUser: Int
  /// Whether the control API is served, with each answer's verdict on its OAuth 1.0a signature.
  package var controlAPI: Bool
  /// The control API's token; `nil` for a random one.
  package var controlToken: String?
  /// How long an OAuth 2.0 access token lives, in seconds.
  package var oauth2Lifetime: Int64
  /// The rate limits' window, in seconds.
  package var rateWindow: Int64
  /// What the filtered stream's intervals are multiplied by.
  package var streamTimeScale: Double
  /// The credit balance the sandbox bills against, as X does; `nil`: free.
  package var credits: USD?
  /// The post reads allowed before X's 429 `usage-capped`; `nil`: no cap.
  package var postCap: Int?
  /// Whether v2 answers use the post names of X's specification 2.167 (`referenced_posts` ...)
  /// instead of the tweet names X's pages document.
  package var postSpelling: Bool
  /// The file every answer is appended to, as JSON lines; `nil`: none is kept.
  package var exchangeLog: URL?

  /// Settings with every value given; the sandbox is free unless given `credits` or a `postCap`,
  /// answers in the tweet names unless `postSpelling`, and keeps no `exchangeLog` unless given one.
  package init(
    port: UInt16, tweetsPerUser: Int, controlAPI: Bool, controlToken: String?, oauth2Lifetime: Int64, rateWindow: Int64, streamTimeScale: Double,
    credits: USD? = nil, postCap: Int? = nil, postSpelling: Bool = false, exchangeLog: URL? = nil
  ) {
    self.postSpelling = postSpelling
    self.exchangeLog = exchangeLog
    self.port = port
    self.tweetsPerUser = tweetsPerUser
    self.controlAPI = controlAPI
    self.controlToken = controlToken
    self.oauth2Lifetime = oauth2Lifetime
    self.rateWindow = rateWindow
    self.streamTimeScale = streamTimeScale
    self.credits = credits
    self.postCap = postCap
  }
}

/// A sandbox served over loopback HTTP, as `tweets sandbox serve` reports it.
package protocol TweetsSandboxServer: Sendable {
  /// `http://127.0.0.1:PORT`.
  var baseURL: URL { get }
  /// The control API's token; `nil` when there is no control API.
  var controlToken: String? { get }
}
