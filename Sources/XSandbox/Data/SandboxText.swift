/// Reading a tweet's text as X does: its entities and its language.
enum SandboxText {
  /// A stretch of text that reads as a link, a mention or a hashtag, known account or not.
  private struct Span {
    enum Kind { case link, mention, hashtag }
    let kind: Kind
    let range: Range<Int>
    /// The link, or the name or tag without its `@` or `#`.
    let value: String
  }

  /// The entities of a tweet's whole text, in text order; a link to its media gives one entity
  /// per media item, as X's do.
  static func entities(of tweet: SandboxTweet) -> [SandboxEntity] {
    entities(in: tweet.text, media: tweet.media, mediaLink: tweet.mediaLink)
  }

  /// The entities of `text`: links (t.co ones as the fixtures know them), mentions of existing
  /// accounts, and hashtags (not all digits: `#5` is none).
  static func entities(in text: String, media: [SandboxMedia] = [], mediaLink: String? = nil) -> [SandboxEntity] {
    var found: [SandboxEntity] = []
    for span in spans(Array(text.unicodeScalars)) {
      let start = span.range.lowerBound, end = span.range.upperBound
      switch span.kind {
      case .link:
        if let mediaLink, span.value == mediaLink, !media.isEmpty {
          let display = "pic.x.com/" + String(mediaLink.dropFirst("https://t.co/".count))
          for item in media {
            found.append(
              SandboxEntity(kind: .url(span.value, expanded: item.expandedURL, display: display, mediaKey: item.key), start: start, end: end))
          }
        } else {
          let target = link(for: span.value)
          found.append(
            SandboxEntity(kind: .url(span.value, expanded: target.expanded, display: target.display, mediaKey: nil), start: start, end: end))
        }
      case .mention:
        if let user = SandboxData.user(named: span.value) { found.append(SandboxEntity(kind: .mention(user), start: start, end: end)) }
      case .hashtag:
        found.append(SandboxEntity(kind: .hashtag(span.value), start: start, end: end))
      }
    }
    return found
  }

  /// Where a link leads: a fixture's t.co link as the fixtures say, any other link to itself,
  /// shown without its scheme and cut after 26 characters.
  static func link(for url: String) -> SandboxLink {
    if let known = SandboxData.links[url] { return known }
    var display = url
    for prefix in ["https://", "http://", "www."] where display.hasPrefix(prefix) {
      display.removeFirst(prefix.count)
    }
    return SandboxLink(expanded: url, display: display.count > 26 ? String(display.prefix(26)) + "\u{2026}" : display)
  }

  /// The usernames a reply's text starts with: the `@user ` names X puts in front of it.
  static func leadingMentions(of tweet: SandboxTweet) -> [String] {
    entities(in: tweet.text).compactMap { entity in
      guard case .mention(let user) = entity.kind, entity.end <= tweet.replyPrefix else { return nil }
      return user.username
    }
  }

  /// What X's language detection would say of the fixtures, in BCP 47, from the words outside
  /// links, mentions and hashtags: `ja` for kana, `fr` for French accents, `en` for Latin
  /// words, `und` when there are no words.
  static func language(of text: String) -> String {
    let scalars = Array(text.unicodeScalars)
    var isWord = [Bool](repeating: true, count: scalars.count)
    for span in spans(scalars) {
      for index in span.range { isWord[index] = false }
    }
    let words = scalars.indices.filter { isWord[$0] }.map { scalars[$0] }
    if words.contains(where: { (0x3040...0x30FF).contains($0.value) }) { return "ja" }
    let accents = "\u{E0}\u{E2}\u{E7}\u{E8}\u{E9}\u{EA}\u{EB}\u{EE}\u{EF}\u{F4}\u{FB}\u{F9}\u{153}".unicodeScalars
    if words.contains(where: { accents.contains($0) }) { return "fr" }
    if zip(words, words.dropFirst()).contains(where: { isLatinLetter($0) && isLatinLetter($1) }) { return "en" }
    return "und"
  }

  // MARK: - Scanning

  /// The links, mentions and hashtags of a text, left to right, whether or not they name
  /// anything: what the entities come from and what language detection leaves out.
  private static func spans(_ scalars: [Unicode.Scalar]) -> [Span] {
    var spans: [Span] = []
    var index = 0
    while index < scalars.count {
      let previous: Unicode.Scalar? = index > 0 ? scalars[index - 1] : nil
      if let end = linkEnd(scalars, at: index, after: previous) {
        spans.append(Span(kind: .link, range: index..<end, value: string(scalars[index..<end])))
        index = end
      } else if let end = mentionEnd(scalars, at: index, after: previous) {
        spans.append(Span(kind: .mention, range: index..<end, value: string(scalars[(index + 1)..<end])))
        index = end
      } else if let end = hashtagEnd(scalars, at: index, after: previous) {
        spans.append(Span(kind: .hashtag, range: index..<end, value: string(scalars[(index + 1)..<end])))
        index = end
      } else {
        index += 1
      }
    }
    return spans
  }

  /// `http(s)://...` after a space, a `(` or nothing, up to the next space, without trailing
  /// punctuation.
  private static func linkEnd(_ scalars: [Unicode.Scalar], at index: Int, after previous: Unicode.Scalar?) -> Int? {
    if let previous, !(previous.properties.isWhitespace || previous == "(") { return nil }
    guard let scheme = ["https://", "http://"].first(where: { starts(scalars, with: $0, at: index) }) else { return nil }
    let rest = index + scheme.unicodeScalars.count
    var end = rest
    while end < scalars.count, !scalars[end].properties.isWhitespace { end += 1 }
    let trailing = ".,;:!?)'\"".unicodeScalars
    while end > rest, trailing.contains(scalars[end - 1]) { end -= 1 }
    return end > rest ? end : nil
  }

  /// `@name`: 1 to 15 of `A-Z a-z 0-9 _`, not after a word character or `@!#$%&*`, not
  /// followed by a word character or `@`.
  private static func mentionEnd(_ scalars: [Unicode.Scalar], at index: Int, after previous: Unicode.Scalar?) -> Int? {
    guard scalars[index] == "@" else { return nil }
    if let previous, isWordCharacter(previous) || "@!#$%&*".unicodeScalars.contains(previous) { return nil }
    var end = index + 1
    while end < scalars.count, end - index - 1 < 15, isUsernameCharacter(scalars[end]) { end += 1 }
    guard end > index + 1 else { return nil }
    if end < scalars.count, isWordCharacter(scalars[end]) || scalars[end] == "@" { return nil }
    return end
  }

  /// `#tag`: word characters, not all digits, not after a word character, `&` or `#`.
  private static func hashtagEnd(_ scalars: [Unicode.Scalar], at index: Int, after previous: Unicode.Scalar?) -> Int? {
    guard scalars[index] == "#" else { return nil }
    if let previous, isWordCharacter(previous) || previous == "&" || previous == "#" { return nil }
    var end = index + 1
    while end < scalars.count, isWordCharacter(scalars[end]) { end += 1 }
    guard end > index + 1, scalars[(index + 1)..<end].contains(where: { !isDigit($0) }) else { return nil }
    return end
  }

  private static func starts(_ scalars: [Unicode.Scalar], with prefix: String, at index: Int) -> Bool {
    let wanted = Array(prefix.unicodeScalars)
    return index + wanted.count <= scalars.count && Array(scalars[index..<(index + wanted.count)]) == wanted
  }

  /// A letter, a decimal digit or `_`, in any script.
  private static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "_" || scalar.properties.isAlphabetic || isDigit(scalar)
  }

  private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.numericType == .decimal
  }

  private static func isUsernameCharacter(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
  }

  private static func isLatinLetter(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
  }

  private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
    var view = String.UnicodeScalarView()
    view.append(contentsOf: scalars)
    return String(view)
  }
}
