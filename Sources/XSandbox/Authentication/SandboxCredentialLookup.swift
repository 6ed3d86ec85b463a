import Locking
import OAuth1

/// The credentials the verifier may use for one request: the demo consumer, and the access
/// tokens (resources) or the pending request tokens (`/oauth/access_token`).
struct SandboxCredentialLookup: OAuthCredentialLookup {
  enum Tokens: Sendable { case access, request }

  let state: Locked<SandboxState>
  let consumer: Credentials
  let tokens: Tokens

  func consumer(forKey key: String) async throws -> OAuthConsumer? {
    key == consumer.key ? OAuthConsumer(secret: consumer.secret) : nil
  }

  func tokenSecret(forToken token: String, consumerKey: String) async throws -> String? {
    state.withLock { state in
      switch tokens {
      case .access: return state.accessToken(token)?.secret
      case .request: return state.requestTokens[token]?.secret
      }
    }
  }
}
