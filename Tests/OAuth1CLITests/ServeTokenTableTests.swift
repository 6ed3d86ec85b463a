import Testing

@testable import oauth1

/// The provider's token tables stay bounded however many tokens a client makes (each needs the
/// consumer secret, but a loop of them must not grow the server without end).
@Suite("oauth1 serve's token tables")
struct ServeTokenTableTests {
  @Test func aTableKeepsTheNewestUpToItsBound() {
    var table = BoundedTable<Int>()
    let bound = LoopbackProvider.maximumTokens
    for index in 0..<(3 * bound + 7) { table["t\(index)"] = index }
    #expect(table.count == bound)
    #expect(table["t0"] == nil && table["t\(2 * bound + 6)"] == nil)
    #expect(table["t\(2 * bound + 7)"] == 2 * bound + 7 && table["t\(3 * bound + 6)"] == 3 * bound + 6)
  }

  /// Tokens added and removed (request tokens exchanged) leave nothing behind.
  @Test func removedTokensDoNotAccumulate() {
    var table = BoundedTable<Int>()
    for index in 0..<(5 * LoopbackProvider.maximumTokens) {
      table["t\(index)"] = index
      table["t\(index)"] = nil
    }
    table["last"] = 1
    #expect(table.count == 1 && table["last"] == 1)
  }
}
