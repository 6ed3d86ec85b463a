import CommandLineSupport
import Foundation

/// What every `oauth1` subcommand does around its own work: parse, answer `--help` and
/// `--version`, and turn failures into a message and an exit status (2 for wrong usage, 1 for
/// anything else).
enum CommandRunner {
  /// Options both subcommands take, so their spelling and help cannot drift apart.
  static let method = Option.value("method", short: "X", placeholder: "METHOD", help: "HTTP method (default GET).")
  static let host = Option.value("host", placeholder: "HOST", help: "The Host header, if it differs from the URL's host.")
  static let consumerSecret = Option.value("consumer-secret", placeholder: "SECRET", help: "Consumer secret (or env OAUTH1_CONSUMER_SECRET).")
  static let tokenSecret = Option.value("token-secret", placeholder: "SECRET", help: "Token secret (or env OAUTH1_TOKEN_SECRET).")
  static let version = Option.flag("version", help: "Print the version.")

  static func run(_ spec: CommandSpec, _ arguments: [String], _ body: (ParsedArguments) async throws -> Int32) async -> Int32 {
    do {
      // An option of another subcommand is named as such: "oauth1 sign does not take --max-time: request does".
      let parsed = try OAuth1Command.shell.parse(arguments, for: spec)
      if parsed[CommandSpec.help] {
        print(spec.usage, terminator: "")
        return 0
      }
      if parsed[version] {
        print("oauth1 \(OAuth1Command.version)")
        return 0
      }
      return try await body(parsed)
    } catch let error as UsageError {
      return Output.usage(error, spec)
    } catch {
      Output.error("\(error)")
      return 1
    }
  }
}
