extension Int {
  /// The sum, or `Int.max` (`Int.min`) where it would overflow: for counts a server sends
  /// (`tweet_count` near `Int.max`), which must be shown, not trap the process.
  ///
  /// ```swift
  /// Int.max.addingSaturating(1)  // Int.max
  /// ```
  package func addingSaturating(_ other: Int) -> Int {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? (other > 0 ? .max : .min) : sum
  }
}
