import CommandLineSupport
import DateFormats
import Foundation
import XAPI

/// `tweets counts QUERY`.
struct CountsCommand: TweetsCommand {
  let name = "counts"
  /// App-only (a bearer token): no consumer.
  let shared: SharedOptions = [.session, .format, .window]
  static let granularity = Option<String>.value(
    "granularity", placeholder: "minute|hour|day", default: .value("hour"), help: "The buckets' size (default \(.default)).",
    ArgumentConversion(expecting: "minute, hour or day") { ["minute", "hour", "day"].contains($0) ? $0 : nil })
  var spec: CommandSpec {
    makeSpec(
      summary:
        "How many recent tweets (the last 7 days) match a query, per hour (or minute, or day); app-only: X_BEARER_TOKEN, or one obtained from the app's consumer key and secret.",
      options: [Self.granularity], positionals: [PositionalSpec("query", help: "The query (X's search syntax).", variadic: true)])
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let query = arguments.positionals.joined(separator: " ")
    guard !query.trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError("the query is empty") }
    let granularity = try arguments.value(Self.granularity)
    let client = try await session.appClient(for: "counts")
    let options = session.options
    let counts = try await client.v2.tweetCounts(
      query: query, granularity: granularity, sinceID: options.sinceID, untilID: options.untilID, startTime: options.startTime,
      endTime: options.endTime)
    let terminal = session.terminal
    switch session.options.format {
    case .raw:
      terminal.writeOut(String(decoding: counts.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) + "\n")
    case .json, .jsonl:
      let rows = counts.buckets.map {
        "{\"end\":\"\($0.end.map(RFC3339.string(from:)) ?? "")\",\"start\":\"\($0.start.map(RFC3339.string(from:)) ?? "")\",\"tweet_count\":\($0.count)}"
      }
      terminal.writeOut(session.options.format == .json ? "[" + rows.joined(separator: ",") + "]\n" : rows.map { $0 + "\n" }.joined())
    case .csv:
      terminal.writeOut(
        "start,end,tweet_count\r\n"
          + counts.buckets.map { "\($0.start.map(RFC3339.string(from:)) ?? ""),\($0.end.map(RFC3339.string(from:)) ?? ""),\($0.count)\r\n" }.joined())
    case .text:
      for bucket in counts.buckets { terminal.out("\(bucket.start.map(RFC3339.string(from:)) ?? "?")  \(bucket.count)") }
      terminal.out("total: \(counts.total)")
    }
    return .success
  }
}
