import Foundation
import Testing

@testable import XAPI

/// v2's `created_at`: ISO 8601 in UTC with or without milliseconds, and (never seen from X, still
/// read) with an offset; the instant is kept to the millisecond.
@Suite("Dates in X's answers")
struct DateParsingTests {
  @Test func theForms() throws {
    let noon = Date(timeIntervalSince1970: 1_714_564_800)  // 2024-05-01T12:00:00Z
    #expect(XDates.iso8601("2024-05-01T12:00:00.000Z") == noon)
    #expect(XDates.iso8601("2024-05-01T12:00:00Z") == noon)
    #expect(XDates.iso8601("2024-05-01T14:00:00+02:00") == noon)
    let withMilliseconds = try #require(XDates.iso8601("2024-05-01T12:00:00.123Z"))
    #expect(abs(withMilliseconds.timeIntervalSince(noon) - 0.123) < 0.000_5)
    #expect(XDates.iso8601("yesterday") == nil)
    #expect(XDates.iso8601("") == nil)
  }
}
