import Foundation
import TestSupport
import Testing

/// `tweets post`'s poll, reply settings, edit, community and labels, and X's 403 for what it
/// sells to Enterprise only, as processes against the sandbox (every request checked by
/// oauthlib, every answer against X's specification when the sandbox stops).
@Suite(
  "tweets post options and Enterprise-only refusals against the sandbox", .sandboxChecks, .serialized, .tags(.peers, .processes),
  .tier(.peers, .processes))
struct PostOptionsCommandTests {
  @Test("a poll with reply settings, a community and both labels; X's limits checked before sending; the sandbox checks the body")
  func pollAndLabels() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20)
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()

    let posted = try await tweets.run([
      "post", "Tabs or spaces?", "--poll", "Tabs|Spaces|Both", "--poll-minutes", "60", "--reply-settings", "following", "--community",
      "1146654567674912769", "--paid-partnership", "--made-with-ai",
    ])
    #expect(posted.status == 0 && posted.stdout.hasPrefix("Posted "), "\(posted.stdout)\(posted.stderr)")

    for (arguments, message) in [
      (["post", "x", "--poll", "Only"], "a poll has 2 to 4 choices (1 given)"),
      (["post", "x", "--poll", "A|B", "--poll-minutes", "4"], "5 to 10080 minutes"),
      (["post", "x", "--poll", "A|\(String(repeating: "b", count: 26))"], "1 to 25 characters"),
      (["post", "x", "--poll", "A|B", "--quote", "1800000000000000000"], "without media and without a quote"),
      (["post", "x", "--poll-minutes", "60"], "--poll-minutes goes with --poll"),
      (["post", "x", "--reply-settings", "everyone"], "--reply-settings is one of following, mentionedUsers, subscribers, verified"),
      (["post", "x", "--edit", "abc"], "the post to edit is an id of 1 to 19 digits"),
      (["post", "--thread", "-", "--poll", "A|B"], "leave out the text, --media, --reply-to, --quote and the post options"),
    ] {
      let refused = try await tweets.run(arguments)
      #expect(refused.status == 2 && refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
    }
    let before = try await server.stats().attempts("/2/tweets")
    #expect(before == 1, "only the good post reached X")

    // The sandbox refuses a body outside X's TweetCreateRequest, as X does.
    let raw = try await tweets.run([
      "api", "POST", "/2/tweets", "--json-body", #"{"text": "raw", "poll": {"options": ["A"], "duration_minutes": 60}}"#,
    ])
    #expect(raw.status != 0 && raw.stdout.contains("$.poll.options"), "\(raw.stdout)\(raw.stderr)")
  }

  @Test("--edit makes a new version with the earlier ones' history; another account's post or a sixth edit is refused")
  func edit() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20)
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let original = try await tweets.run(["post", "Lunch at noon"])
    let first = try #require(original.stdout.split(separator: " ").dropFirst().first.map { String($0.dropLast()) }, "\(original.stdout)")
    var versions = [first]
    for n in 1...5 {
      let edited = try await tweets.run(["post", "Lunch at \(n) pm", "--edit", versions.last!])
      #expect(edited.status == 0 && edited.stdout.hasPrefix("Edited \(versions.last!): the new version is "), "\(edited.stdout)\(edited.stderr)")
      let new = try #require(edited.stdout.split(separator: " ").dropFirst(6).first.map { String($0.dropLast()) })
      versions.append(new)
    }
    let shown = try await tweets.run(["show", versions.last!, "--format", "jsonl"])
    let object = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
    #expect(object?["edit_history_tweet_ids"] as? [String] == versions, "\(shown.stdout)")
    #expect(object?["text"] as? String == "Lunch at 5 pm")

    let sixth = try await tweets.run(["post", "Lunch at six", "--edit", versions.last!])
    #expect(sixth.status != 0 && sixth.stderr.contains("can no longer be edited"), "\(sixth.stderr)")
    let timeline = try await tweets.run(["timeline", "swift_lang", "--limit", "1", "--format", "jsonl"])
    let theirs = try #require((try JSONSerialization.jsonObject(with: Data(timeline.stdout.utf8)) as? [String: Any])?["id"] as? String)
    let notMine = try await tweets.run(["post", "Mine now", "--edit", theirs])
    #expect(notMine.status != 0 && notMine.stderr.contains("403"), "\(notMine.stderr)")
  }

  @Test("X's 403 for an Enterprise-only operation names X's tier and why, exits 3, and is sent once (not retried)")
  func enterpriseOnly() async throws {
    let server = try await VerifiedSandbox.start(tweetsPerUser: 20)
    let tweets = try TweetsRunner(server: server)
    try await tweets.loginWithTokens()
    let like = try await tweets.run(["api", "POST", "/2/users/1001/likes", "--json-body", #"{"tweet_id": "1800000000000000000"}"#])
    #expect(like.status == 3, "\(like.stderr)")
    #expect(
      like.stderr.contains("X sells POST /2/users/{id}/likes to its Enterprise tier only") && like.stderr.contains("2026-04-20")
        && like.stderr.contains("Retrying does not help"), "\(like.stderr)")
    #expect(!like.stderr.contains("not attached to a Project"), "X's client-forbidden body is not read as a missing Project: \(like.stderr)")
    #expect(try await server.stats().attempts("/2/users/1001/likes") == 1)

    // A quote is Enterprise-only too (the row's enterpriseWith): X's 403 to it says so.
    try await server.script("/2/tweets", [["status": 403, "body": #"{"title":"Forbidden","type":"about:blank","status":403,"detail":"Forbidden"}"#]])
    let quote = try await tweets.run(["post", "Look", "--quote", "1800000000000000000"])
    #expect(quote.status == 3 && quote.stderr.contains("X sells POST /2/tweets with quote_tweet_id to its Enterprise tier only"), "\(quote.stderr)")
    #expect(try await server.stats().attempts("/2/tweets") == 1)
  }
}
