import Foundation

/// A post's length as X counts it (twitter-text's version 3 configuration, which X's
/// `create-post` limit follows): text normalized to NFC; each URL counts 23, whatever its
/// length; code points in the Latin, general punctuation and similar ranges count 1, others
/// (CJK, for instance) 2; an emoji counts 2 however many code points it takes. A post may
/// weigh 280 (X Premium allows longer posts). URLs are recognized when they stand on their own
/// (after a space or at the start), a simplification of twitter-text's URL rules that its
/// port agrees with on such texts (`PostLengthTests`).
///
/// ```swift
/// PostLength.weighted("Hello https://example.com/a/very/long/path")  // 29
/// PostLength.weighted("日本語")                                       // 6
/// ```
public enum PostLength {
  /// X's limit for a post without X Premium.
  public static let limit = 280

  /// What a URL counts, shortened to a t.co link.
  public static let urlLength = 23

  /// The ranges of code points that count 1 (twitter-text `v3.json`).
  static let light: [ClosedRange<UInt32>] = [0...4351, 8192...8205, 8208...8223, 8242...8247]

  /// The weighted length of `text`.
  public static func weighted(_ text: String) -> Int {
    let normalized = text.precomposedStringWithCanonicalMapping
    var total = 0
    var rest = Substring(normalized)
    // A URL standing on its own (at the start or after white space), to the next white space.
    while let url = rest.range(of: #"(?<![^\s])https?://[^\s]+"#, options: [.regularExpression, .caseInsensitive]) {
      total += count(rest[..<url.lowerBound]) + urlLength
      rest = rest[url.upperBound...]
    }
    return total + count(rest)
  }

  /// Whether `text` fits in a post without X Premium.
  public static func fits(_ text: String) -> Bool { weighted(text) <= limit }

  private static func count(_ text: Substring) -> Int {
    var weight = 0
    for character in text {
      let scalars = character.unicodeScalars
      if let first = scalars.first, first.properties.isEmojiPresentation || (first.properties.isEmoji && scalars.count > 1) {
        weight += 2
        continue
      }
      for scalar in scalars { weight += light.contains { $0.contains(scalar.value) } ? 1 : 2 }
    }
    return weight
  }
}
