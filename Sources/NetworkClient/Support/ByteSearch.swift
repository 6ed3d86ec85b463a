/// Finds a byte string in a longer one in time linear in both (Knuth–Morris–Pratt): each byte of
/// the text is compared a bounded number of times, whatever the two hold, so that a hostile body
/// full of near-misses of a multipart boundary costs no more than any other body of its size.
///
/// ```swift
/// ByteSearch(Array("\r\n--B".utf8)).first(in: Array("a\r\n--B".utf8), from: 0)  // 1
/// ```
struct ByteSearch {
  /// What is looked for; not empty.
  let needle: [UInt8]
  /// For each prefix of ``needle``, the length of its longest proper prefix that is also its suffix.
  private let fallback: [Int]

  init(_ needle: [UInt8]) {
    precondition(!needle.isEmpty, "ByteSearch needs something to look for")
    self.needle = needle
    var fallback = [0]
    var length = 0
    for byte in needle.dropFirst() {
      while length > 0 && needle[length] != byte { length = fallback[length - 1] }
      if needle[length] == byte { length += 1 }
      fallback.append(length)
    }
    self.fallback = fallback
  }

  /// The index in `text` where ``needle`` first starts at or after `start`, or `nil`.
  func first(in text: [UInt8], from start: Int) -> Int? {
    var work = 0
    return first(in: text, from: start, work: &work)
  }

  /// ``first(in:from:)``, adding to `work` the steps taken: at most two per byte of `text` looked
  /// at (each fallback undoes a step forward), which ``MultipartReader`` counts.
  func first(in text: [UInt8], from start: Int, work: inout Int) -> Int? {
    var matched = 0
    var index = max(start, 0)
    while index < text.count {
      let byte = text[index]
      work += 1
      while matched > 0 && needle[matched] != byte {
        matched = fallback[matched - 1]
        work += 1
      }
      if needle[matched] == byte { matched += 1 }
      if matched == needle.count { return index - matched + 1 }
      index += 1
    }
    return nil
  }
}
