import DateFormats
import Foundation
import TestSupport
import Testing

/// The written forms checked against GNU `date` (coreutils, not this package's code) at instants
/// from 1901 to 2100, leap days, the ends of months and years, and before 1970 included.
#if os(Linux)
  private let isLinux = true
#else
  private let isLinux = false
#endif

@Suite("Dates written as GNU date writes them")
struct WrittenFormsTests {
  static let instants: [Int64] = {
    var generator = SystemRandomNumberGenerator()
    let fixed: [Int64] = [0, -1, 951_782_400, 951_868_799, 1_709_164_800, 1_735_689_599, -2_000_000_000, 4_102_444_799, 784_111_777]
    return fixed + (0..<40).map { _ in Int64.random(in: -2_145_916_800...4_102_444_799, using: &generator) }
  }()

  // GNU date (`-d @seconds`) is Linux's; macOS's BSD date has other flags.
  @Test(.enabled(if: isLinux)) func httpDatesAndV1AndRFC3339() throws {
    let formats = ["+%a, %d %b %Y %H:%M:%S GMT", "+%a %b %d %H:%M:%S +0000 %Y", "+%Y-%m-%dT%H:%M:%S.000Z"]
    for instant in Self.instants {
      let date = Date(epochSeconds: instant)
      let theirs = try gnuDate(instant, formats)
      let ours = [HTTPDate.string(from: date), TwitterV1Date.string(from: date), RFC3339.millisecondString(from: date)]
      #expect(ours == theirs, "at \(instant)")
      // And each reads back as the same instant.
      #expect(HTTPDate.date(from: ours[0]) == date)
      #expect(TwitterV1Date.date(from: ours[1]) == date)
      #expect(RFC3339.date(from: ours[2]) == date)
      #expect(date.epochSeconds == instant)
    }
  }

  /// RFC 9110's own example, in its three forms, and what is no HTTP date.
  @Test func httpDateForms() {
    let expected = Date(timeIntervalSince1970: 784_111_777)
    #expect(HTTPDate.date(from: "Sun, 06 Nov 1994 08:49:37 GMT") == expected)
    #expect(HTTPDate.date(from: "Sunday, 06-Nov-94 08:49:37 GMT") == expected)
    #expect(HTTPDate.date(from: "Sun Nov  6 08:49:37 1994") == expected)
    #expect(HTTPDate.date(from: "soon") == nil)
    #expect(HTTPDate.date(from: "") == nil)
  }

  /// A v1.1 date with an offset (X sends +0000 only) is read at its instant.
  @Test func v1WithAnOffset() {
    #expect(TwitterV1Date.date(from: "Wed May 01 14:00:00 +0200 2024") == Date(timeIntervalSince1970: 1_714_564_800))
    #expect(TwitterV1Date.date(from: "2024-05-01") == nil)
  }

  private func gnuDate(_ instant: Int64, _ formats: [String]) throws -> [String] {
    try formats.map { format in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = ["date", "-u", "-d", "@\(instant)", format]
      process.environment = ["LC_ALL": "C", "PATH": "/usr/bin:/bin"]
      let pipe = Pipe()
      process.standardOutput = pipe
      try process.runOneAtATime()
      let data = pipe.fileHandleForReading.readDataToEndOfFile()
      _ = ChildExit.wait(process, until: Date().addingTimeInterval(60))
      return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
    }
  }
}
