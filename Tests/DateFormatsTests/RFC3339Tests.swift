import Foundation
import Testing

@testable import DateFormats

/// v2's `created_at`: ISO 8601 in UTC with or without milliseconds, and (never seen from X, still
/// read) with an offset; the instant is kept to the millisecond.
@Suite("Dates in X's answers")
struct DateParsingTests {
  @Test func theForms() throws {
    let noon = Date(timeIntervalSince1970: 1_714_564_800)  // 2024-05-01T12:00:00Z
    #expect(RFC3339.date(from: "2024-05-01T12:00:00.000Z") == noon)
    #expect(RFC3339.date(from: "2024-05-01T12:00:00Z") == noon)
    #expect(RFC3339.date(from: "2024-05-01T14:00:00+02:00") == noon)
    let withMilliseconds = try #require(RFC3339.date(from: "2024-05-01T12:00:00.123Z"))
    #expect(abs(withMilliseconds.timeIntervalSince(noon) - 0.123) < 0.000_5)
    #expect(RFC3339.date(from: "yesterday") == nil)
    #expect(RFC3339.date(from: "") == nil)
  }

  /// `tweets --start-time` also takes a day alone; a day with anything after it is no day.
  @Test func aDayAlone() {
    #expect(RFC3339.date(fromTimeOrDay: "2024-05-01") == Date(timeIntervalSince1970: 1_714_521_600))
    #expect(RFC3339.date(fromTimeOrDay: "2024-05-01T12:00:00Z") == Date(timeIntervalSince1970: 1_714_564_800))
    #expect(RFC3339.date(fromTimeOrDay: "2024-05-01junk") == nil)
    #expect(RFC3339.date(fromTimeOrDay: "2024-13-01") == nil)
  }

  @Test func writing() {
    let noon = Date(timeIntervalSince1970: 1_714_564_800)
    #expect(RFC3339.string(from: noon) == "2024-05-01T12:00:00Z")
    #expect(RFC3339.millisecondString(from: noon) == "2024-05-01T12:00:00.000Z")
    #expect(RFC3339.dayString(from: noon) == "2024-05-01")
  }
}
