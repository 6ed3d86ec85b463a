import XAPI

/// X's 403 for a missing OAuth 2.0 scope, explained: X's own message says "forbidden" and no
/// more, so a command that needs scopes names them and the login that asks for them.
///
/// ```swift
/// try await ScopeExplanation.explained("Blocked accounts need the scopes block.read, tweet.read and users.read") {
///   try await TweetStream.print(client.v2.blocking(userID: me), session)
/// }
/// ```
enum ScopeExplanation {
  /// `work`, with X's 403 turned into a failure that says `needs`, then how to log in.
  static func explained<T>(_ needs: String, _ work: () async throws -> T) async throws -> T {
    do {
      return try await work()
    } catch let error as XError {
      guard case .api(403, _, let message, _) = error else { throw error }
      throw TweetsFailure("X answered HTTP 403: \(message) \(needs): tweets login --oauth2.", exitCode: ExitCode.for(error))
    }
  }
}
