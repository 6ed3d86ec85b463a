import CommandLineSupport
import Foundation

/// The `tweets` credentials file: ``Profile``s in `credentials.json`, 0600, replaced atomically
/// (the store `oauth1` uses too, with its own profiles).
package typealias ProfileStore = ProfileFile<Profile>

extension ProfileFile where Profile == TweetsCore.Profile {
  /// `$TWEETS_CONFIG_DIR`, else `$XDG_CONFIG_HOME/tweets`, else `~/.config/tweets`.
  package static func defaultDirectory(environment: [String: String]) -> URL {
    defaultDirectory(program: "tweets", environment: environment)
  }
}
