import CommandLineSupport
import Foundation
import Testing

/// The test tiers. Untagged tests are self-contained: no child process, no server, no Python,
/// no network; the whole tier runs in seconds. Tagged suites need more, and say so with a tag
/// and with ``Trait/tier(_:)``, which skips them under `OAUTH1_TEST_TIER=unit`:
///
///     OAUTH1_TEST_TIER=unit swift test   # the self-contained tests only
///     swift test                         # everything (what CI runs)
extension Tag {
  /// Runs a Python peer: oauthlib, the oauthlib proxy in front of the X sandbox, or the loopback server (pinned, installed by
  /// the tests into an ignored folder on first use; needs `python3` and PyPI the first time).
  @Tag public static var peers: Self
  /// Starts the package's own executables (`tweets`, `oauth1`) as child processes.
  @Tag public static var processes: Self
}

extension Trait where Self == ConditionTrait {
  /// Skips the suite when only self-contained tests are asked for (`OAUTH1_TEST_TIER=unit`).
  /// Pair it with `.tags(...)` naming what the suite needs.
  public static func tier(_ needs: Tag...) -> Self {
    .enabled("needs \(needs.map { "\($0)" }.joined(separator: " and ")); skipped under OAUTH1_TEST_TIER=unit") {
      ProcessInfo.processInfo.environment["OAUTH1_TEST_TIER"] != "unit"
    }
  }
}

extension Tag {
  /// Starts a `redis-server` (on a free loopback port, with no persistence).
  @Tag public static var redis: Self
}

extension Trait where Self == ConditionTrait {
  /// Runs the suite where `redis-server` is installed, and always under CI (`CI` set), where a
  /// missing server then fails the tests instead of skipping them. Pair it with `.tags(.redis)`.
  public static var redisServer: Self {
    .enabled("redis-server is not installed (apt-get install redis-server); skipped outside CI") {
      LocalRedisServer.executable != nil || ProcessInfo.processInfo.environment["CI"] != nil
    }
  }
}
