import Foundation
import TestSupport
import Testing
import XAPI

/// A post's length as X counts it, against twitter-text-parser (a port of Twitter's own
/// twitter-text) on texts that mix every weight: Latin, accents (composed and not), CJK, emoji
/// sequences, URLs standing on their own (twitter-text's rules for URLs glued to other text
/// are not reproduced: see ``PostLength``).
@Suite("PostLength")
struct PostLengthTests {
  @Test func knownLengths() {
    #expect(PostLength.weighted(String(repeating: "a", count: 280)) == 280 && PostLength.fits(String(repeating: "a", count: 280)))
    #expect(PostLength.weighted(String(repeating: "日", count: 141)) == 282)
    #expect(PostLength.weighted("Hello https://example.com/a/very/long/path") == 29)
    #expect(PostLength.weighted("e\u{301}") == 1, "NFC first: é is one")
    #expect(PostLength.weighted("👨‍👩‍👧") == 2)
  }

  @Test("twitter-text-parser counts the same", .tags(.peers), .tier(.peers))
  func agreesWithTwitterText() async throws {
    let pieces = [
      "Hello", " ", "world", "café", "e\u{301}", "日本語", "한국어", "😀", "☀️", "👨‍👩‍👧", "🏳️‍🌈", "#Swift", "@user", "https://example.com/path?q=1",
      "http://x.co", "—", "…", "\n", "Ωμέγα", "Привет", "١٢٣", "🇫🇷", "🐟", "&", "<", "1️⃣",
    ]
    var generator = SystemRandomNumberGenerator()
    var texts = pieces
    let words = pieces.filter { !$0.contains("://") }
    for _ in 0..<300 {
      // Words glued together, and URLs standing on their own, as people write them.
      let glued = (0..<Int.random(in: 1...30, using: &generator)).map { _ in words.randomElement(using: &generator)! }.joined()
      let spaced = (0..<Int.random(in: 1...30, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined(separator: " ")
      texts += [glued, spaced]
    }
    let output = try await PythonPeer.run(script: "twitter_text_peer.py", input: try JSONSerialization.data(withJSONObject: texts))
    let theirs = try JSONDecoder().decode([Int].self, from: output)
    let disagreements = zip(texts, theirs).filter { PostLength.weighted($0.0) != $0.1 }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(5).map { "\($0.0.debugDescription): ours \(PostLength.weighted($0.0)), theirs \($0.1)" })")
  }
}
