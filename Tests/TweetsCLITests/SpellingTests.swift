import Foundation
import TestSupport
import Testing

/// X's two spellings of a post's fields, as processes: the same fetches against a sandbox that
/// answers in X's tweet names and one that answers in the post names of X's specification 2.167
/// (`tweets sandbox serve --spelling post`) print the same posts, references, edits, long texts
/// and counts, and so does the filtered stream. The sandboxes date their posts from their own start, so the two runs' times differ
/// by one offset, which the comparison takes out.
@Suite("tweets: both spellings of a post's fields", .sandboxChecks, .tags(.peers, .processes), .tier(.peers))
struct SpellingTests {
  /// What each fetch prints, in JSON lines: a lookup of replies, quotes, retweets, an edited and
  /// a long post; a timeline; a search; mentions; a list.
  static let fetches: [[String]] = [
    ["show", "1799999999999984000", "1799999999999994000", "1799999999999998000", "1799999999999992000", "1799999999999990000", "--format", "jsonl"],
    ["timeline", "sandbox_user", "--limit", "60", "--format", "jsonl"],
    ["search", "from:swift_lang", "--limit", "40", "--format", "jsonl"],
    ["mentions", "--all", "--format", "jsonl"],
    ["list", "1500", "--limit", "30", "--format", "jsonl"],
  ]

  /// The filtered stream's first posts from @swift_lang: app-only, straight to the sandbox (as
  /// `StreamCommandTests` runs it), its firehose sped up.
  static let stream = ["stream", "--limit", "4", "--format", "jsonl"]

  /// The output of every fetch (and of the stream, last) against a sandbox in `spelling`, and
  /// the answers it sent.
  static func outputs(spelling: String) async throws -> (outputs: [String], answers: String, streamLines: [String]) {
    let server = try await VerifiedSandbox.start(streamTimeScale: 0.05, spelling: spelling)
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    var outputs: [String] = []
    for fetch in fetches {
      let result = try await tweets.run(fetch)
      #expect(result.status == 0, "\(spelling): tweets \(fetch.joined(separator: " ")): \(result.stderr)")
      outputs.append(result.stdout)
    }
    let bearer = ["X_BEARER_TOKEN": VerifiedSandbox.bearerToken], direct = server.directURL.absoluteString
    let rule = try await tweets.run(["stream", "rules", "add", "from:swift_lang"], environment: bearer, baseURL: direct)
    #expect(rule.status == 0, "\(rule.stderr)")
    let streamed = try await tweets.run(Self.stream, environment: bearer, baseURL: direct)
    #expect(streamed.status == 0, "\(spelling): tweets stream: \(streamed.stderr)")
    outputs.append(streamed.stdout)
    // The bodies the sandbox sent (the requests' own query names the tweet fields either way).
    let entries = try String(contentsOf: server.exchangeLog, encoding: .utf8).split(separator: "\n").compactMap { line in
      try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    }
    let bodies = entries.compactMap { $0["body"] as? String }
    let lines = entries.filter { $0["stream_line"] as? Bool == true }.compactMap { $0["body"] as? String }
    return (outputs, bodies.joined(separator: "\n"), lines)
  }

  /// `line` with each loopback origin (`http:\/\/127.0.0.1:PORT`) replaced by one placeholder.
  static func withoutOrigin(_ line: String) -> String {
    line.replacingOccurrences(of: #"http:\\?/\\?/127\.0\.0\.1:[0-9]+"#, with: "ORIGIN", options: .regularExpression)
  }

  @Test("The same fetches print the same posts from an answer in either spelling")
  func equalOutput() async throws {
    let tweetNames = try await Self.outputs(spelling: "tweet")
    let postNames = try await Self.outputs(spelling: "post")

    // The answers really differ: the post sandbox wrote every renamed field in its post name.
    for name in ["referenced_posts", "edit_history_post_ids", "note_post", "repost_count", "posts"] {
      #expect(postNames.answers.contains("\"\(name)\":"), "the post spelling's answers hold \(name)")
      #expect(!tweetNames.answers.contains("\"\(name)\":"), "the tweet spelling's answers do not hold \(name)")
    }
    for name in ["referenced_tweets", "edit_history_tweet_ids", "note_tweet", "retweet_count", "tweets"] {
      let key = "\"\(name)\":"
      #expect(tweetNames.answers.contains(key) && !postNames.answers.contains(key), "\(name) only in the tweet spelling's answers")
    }

    #expect(postNames.streamLines.count >= 4 && postNames.streamLines.allSatisfy { $0.contains("\"edit_history_post_ids\":") })
    #expect(tweetNames.streamLines.count >= 4 && tweetNames.streamLines.allSatisfy { $0.contains("\"edit_history_tweet_ids\":") })

    var offsets: Set<Int> = []
    for (index, fetch) in (Self.fetches + [Self.stream]).enumerated() {
      let old = try Self.lines(tweetNames.outputs[index]), new = try Self.lines(postNames.outputs[index])
      #expect(old.count == new.count && !old.isEmpty, "tweets \(fetch.joined(separator: " ")): \(old.count) and \(new.count) posts")
      for (a, b) in zip(old, new) {
        var (timesA, timesB) = ([Date](), [Date]())
        let plainA = Self.withoutTimes(a, into: &timesA), plainB = Self.withoutTimes(b, into: &timesB)
        // Each sandbox serves its media from its own other origin: the port differs, nothing else.
        let (textA, textB) = (Self.withoutOrigin(try Self.canonical(plainA)), Self.withoutOrigin(try Self.canonical(plainB)))
        #expect(textA == textB, "tweets \(fetch.joined(separator: " ")):\n\(textA)\n\(textB)")
        #expect(timesA.count == timesB.count)
        for (x, y) in zip(timesA, timesB) { offsets.insert(Int(y.timeIntervalSince(x).rounded())) }
      }
    }
    // What the fetches read: references, an edit history, the counts and a long text came through.
    let everything = tweetNames.outputs.joined()
    for field in ["referenced_tweets", "edit_history_tweet_ids", "retweets", "bookmarks", "impressions"] {
      #expect(everything.contains("\"\(field)\":"), "the outputs carry \(field)")
    }
    let texts = try tweetNames.outputs.flatMap(Self.lines).compactMap { $0["text"] as? String }
    #expect(texts.contains { $0.count > 280 }, "a long post's whole text (its note) came through")
    #expect(offsets.count <= 1, "every time is shifted by the same offset (the sandboxes' start): \(offsets.sorted())")
  }

  /// `object` as JSON with sorted keys: equal for equal values, whatever their order.
  static func canonical(_ object: [String: Any]) throws -> String {
    String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
  }

  static func lines(_ output: String) throws -> [[String: Any]] {
    try output.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
  }

  /// `object` with every `created_at` taken out, in order, into `times`.
  static func withoutTimes(_ object: [String: Any], into times: inout [Date]) -> [String: Any] {
    var result: [String: Any] = [:]
    for key in object.keys.sorted() {
      let value = object[key]!
      if key == "created_at", let text = value as? String, let date = Self.date(text) {
        times.append(date)
      } else if let nested = value as? [String: Any] {
        result[key] = withoutTimes(nested, into: &times)
      } else if let array = value as? [Any] {
        result[key] = array.map { item in (item as? [String: Any]).map { withoutTimes($0, into: &times) } ?? item }
      } else {
        result[key] = value
      }
    }
    return result
  }

  static func date(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: text)
  }
}
