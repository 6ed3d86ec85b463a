import Foundation
import Testing
import XAPI

@testable import XArchive

/// The ledger on a real SQLite file: X's deduplication as the table's key, the first price
/// standing, connections that write at once (as two processes on one profile do), and a file
/// that outlives the connection.
@Suite("SQLite ledger")
struct SQLiteLedgerTests {
  let path: String

  init() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    path = folder.appendingPathComponent("default.ledger.sqlite").path
  }

  static func post(_ id: Int, day: String = "2026-11-26", price: String = "0.005", command: String = "search") -> XCharge {
    XCharge(day: day, kind: .resource(.post), id: "\(id)", price: USD(price)!, command: command)
  }

  @Test func aResourceIsChargedOncePerDayAtItsFirstPrice() async throws {
    let ledger = try SQLiteLedger(path: path)
    #expect(try await ledger.record([Self.post(1), Self.post(2)]).count == 2)
    // The same post as an owned read, and on the same day: not charged again; on the next day it is.
    #expect(try await ledger.record([Self.post(1, price: "0.001", command: "timeline"), Self.post(3)]).map(\.id) == ["3"])
    #expect(try await ledger.record([Self.post(1, day: "2026-11-27")]).map(\.id) == ["1"])
    let requestID = XCharge(day: "2026-11-26", kind: .request(.postCreateWithURL), id: "r1", price: USD("0.20")!, command: "post")
    #expect(try await ledger.record([requestID]).count == 1)
    #expect(try await ledger.charged(day: "2026-11-26", kind: .resource(.post), ids: ["1", "2", "4"]) == ["1", "2"])
    #expect(
      try await ledger.totals(from: "2026-11-01", through: "2026-11-30") == [
        XLedgerTotal(day: "2026-11-26", command: "post", items: 1, amount: USD("0.20")!),
        XLedgerTotal(day: "2026-11-26", command: "search", items: 3, amount: USD("0.015")!),
        XLedgerTotal(day: "2026-11-27", command: "search", items: 1, amount: USD("0.005")!),
      ])
    // Reopened, it holds the same account.
    let again = try SQLiteLedger(path: path)
    #expect(try await again.totals(from: "2026-11-26", through: "2026-11-26").map(\.amount) == [USD("0.20")!, USD("0.015")!])
  }

  /// Two connections (two processes sharing a profile) record overlapping pages at once: every
  /// resource is in the ledger exactly once, and the two runs' new charges add up to it.
  @Test func twoWritersAtOnceNeitherLoseNorDouble() async throws {
    let first = try SQLiteLedger(path: path)
    let second = try SQLiteLedger(path: path)
    async let a = Self.writePages(first, ids: Array(0..<3_000), pageSize: 100)
    async let b = Self.writePages(second, ids: Array(1_500..<4_500), pageSize: 100)
    let (newA, newB) = try await (a, b)
    #expect(newA + newB == 4_500)
    let totals = try await first.totals(from: "2026-11-26", through: "2026-11-26")
    #expect(totals.map(\.items).reduce(0, +) == 4_500)
    #expect(totals.map(\.amount).reduce(USD.zero, +) == USD(micros: 5_000) * 4_500)
  }

  static func writePages(_ ledger: SQLiteLedger, ids: [Int], pageSize: Int) async throws -> Int {
    var new = 0
    for start in stride(from: 0, to: ids.count, by: pageSize) {
      new += try await ledger.record(ids[start..<min(start + pageSize, ids.count)].map { post($0) }).count
    }
    return new
  }

  @Test func aLedgerFromANewerReleaseIsRefused() throws {
    _ = try SQLiteLedger(path: path)
    let database = try SQLiteDatabase(path: path)
    try database.execute("PRAGMA user_version = 2")
    database.close()
    #expect {
      try SQLiteLedger(path: path)
    } throws: { error in
      "\(error)".contains("newer than this release")
    }
  }
}
