import NetworkClient
import OAuthNetworking
import XAPI

/// The exit statuses of `tweets`, documented in its help and the README.
package enum ExitCode: Int32, Sendable, CaseIterable {
  /// The command did what was asked.
  case success = 0
  /// A network failure, output that could not be written (a full disk), or anything unexpected.
  case failure = 1
  /// Wrong usage: an unknown command or option, a bad value.
  case usage = 2
  /// Authentication or permission: bad keys, revoked token, clock skew, access tier, no profile.
  case authentication = 3
  /// X answered that the user or tweet does not exist (or is not visible to you).
  case notFound = 4
  /// Rate limited, and not waiting (`--no-wait`, or the reset is beyond `--max-wait`).
  case rateLimited = 5
  /// The server failed (5xx), after retries where the request could be repeated.
  case serverError = 6
  /// Stopped before a request whose worst case would pass the spending limit (`--max-cost`, or
  /// the profile's `tweets budget`): what was stored is kept, and `--resume` with a larger
  /// limit goes on without buying again what was bought today.
  case budget = 7
  /// Stopped by SIGINT (Ctrl-C) before the end: what was stored is kept, and `--resume` goes on.
  case interrupted = 130
  /// Stopped by SIGTERM before the end: what was stored is kept, and `--resume` goes on.
  case terminated = 143

  static let documentation = """
    Exit status: 0 success; 1 network or unexpected error, or output that could not be written
    (a full disk); 2 usage error; 3 authentication or permission failure (keys, token, clock,
    access tier, no stored profile); 4 not found; 5 rate limited; 6 server error (after retries
    where safe); 7 stopped at the spending limit (--max-cost; what was stored is kept: add
    --resume with a larger limit); 130 and 143 stopped by SIGINT or SIGTERM (what was stored is
    kept: add --resume to go on). A reader of standard output that went away (| head) ends
    tweets quietly by SIGPIPE (141 in a shell), as it ends other Unix tools.
    """

  /// The status for an API error.
  package static func `for`(_ error: XError) -> ExitCode {
    switch error {
    case .couldNotAuthenticate, .unauthorized, .invalidOrExpiredToken, .timestampOutOfBounds, .badAuthenticationData, .accessLevel,
      .clientNotEnrolled, .creditsDepleted, .enterpriseOnly:
      return .authentication
    case .rateLimited:
      return .rateLimited
    case .notFound:
      return .notFound
    case .duplicate, .mediaProcessingFailed, .streamRulesRefused:
      return .failure
    case .invalidMedia:
      return .usage
    case .api(let status, _, _, _), .unexpectedResponse(let status, _, _):
      if status >= 500 { return .serverError }
      if status == 401 || status == 403 { return .authentication }
      if status == 404 { return .notFound }
      if status == 429 { return .rateLimited }
      return .failure
    case .network(let error):
      if case .httpStatus(let failure) = error, failure.statusCode >= 500 { return .serverError }
      if case .rejected(_, let underlying) = error, underlying is XBudgetError { return .budget }
      return .failure
    }
  }

  /// The status for a failure of the login flow.
  package static func `for`(_ error: OAuthFlowError) -> ExitCode {
    switch error {
    case .rejected(_, let status, _, _): return status >= 500 ? .serverError : .authentication
    case .callbackNotConfirmed, .malformedResponse, .network: return .failure
    }
  }
}

/// A failure the tool reports itself: its message (never with a secret) and exit status.
package struct TweetsFailure: Error, Sendable, CustomStringConvertible {
  /// What went wrong and what to do, printed after `tweets: error:`.
  package let message: String
  /// The status the process exits with.
  package let exitCode: ExitCode

  /// A failure to report with `message` and to exit with `exitCode`.
  package init(_ message: String, exitCode: ExitCode) {
    self.message = message
    self.exitCode = exitCode
  }

  package var description: String { message }
}
