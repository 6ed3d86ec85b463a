import Foundation

/// The checks and the spelling of Basic Outcomes scores, in one place: a score is a finite
/// number from 0 to 1, sent in its shortest decimal form (`0.92`, never `-0.0`).
enum LTIScore {
  /// `score`, checked: finite and within 0…1.
  static func checked(_ score: Double) throws(LTIError) -> Double {
    guard score.isFinite, (0...1).contains(score) else { throw .invalidScore(String(describing: score)) }
    return score == 0 ? 0 : score
  }

  /// A total score in points (Canvas's `resultTotalScore`), checked: finite and not negative.
  static func checkedTotal(_ points: Double) throws(LTIError) -> Double {
    guard points.isFinite, points >= 0 else { throw .invalidScore(String(describing: points)) }
    return points == 0 ? 0 : points
  }

  /// The score as the POX `textString` carries it.
  static func text(_ score: Double) -> String {
    score == score.rounded() && abs(score) < 1e15 ? String(Int64(score)) : String(describing: score)
  }

  /// A received `textString`, read as a score in 0…1.
  static func parse(_ text: String) throws(LTIError) -> Double {
    guard let value = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw .invalidScore(LTIError.quoted(text)) }
    return try checked(value)
  }
}
