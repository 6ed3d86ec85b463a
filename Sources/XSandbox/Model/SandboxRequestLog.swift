/// An entry of a ``SandboxRequestLog``: numbered in order as it is appended.
protocol SandboxLogEntry: Sendable {
  /// Its number in the log's lifetime, one more than the entry before it.
  var serial: Int { get }
}

/// One request as the sandbox saw it, for tests that count attempts and check what was sent.
struct SandboxRecordedRequest: SandboxLogEntry {
  /// Its number in the sandbox's lifetime: the log may be cleared while it is answered.
  let serial: Int
  let method: String
  /// The path as sent, before any `/2/` or `/1.1/` prefix is looked for.
  let path: String
  let query: String
  /// Whether an `Authorization` header arrived at all.
  let authorization: Bool
  /// What the request tried: `oauth1`, `bearer` or `none`.
  var auth = "none"
  /// The status answered; 0 for a reset connection, `nil` while unanswered.
  var status: Int?
}

/// A log of requests (the API's, or the other origin's): the newest `capacity` of them, in order, and how many
/// older ones were dropped to keep it so (a test server that runs for days, or a client that
/// floods it, cannot grow it without bound). Appending and finding an entry by its serial
/// number cost the same whatever the size.
struct SandboxRequestLog<Entry: SandboxLogEntry>: Sendable {
  /// How many entries it keeps at most.
  let capacity: Int
  /// The entries; once full, a ring whose oldest entry is at `start`.
  private var storage: [Entry] = []
  private var start = 0
  /// How many entries were dropped, oldest first, since the log was made.
  private(set) var dropped = 0

  init(capacity: Int) {
    self.capacity = max(0, capacity)
  }

  /// The entries, oldest first.
  var entries: [Entry] { Array(storage[start...] + storage[..<start]) }

  /// Adds `request`, dropping the oldest entry when full.
  mutating func append(_ request: Entry) {
    if storage.count < capacity {
      storage.append(request)
    } else if capacity > 0 {
      storage[start] = request
      start = (start + 1) % capacity
      dropped += 1
    } else {
      dropped += 1
    }
  }

  /// Changes the entry numbered `serial`, if it is still kept. Serial numbers in the log are
  /// consecutive (each request takes the next one as it is appended), so its place is known.
  mutating func update(serial: Int, _ change: (inout Entry) -> Void) {
    guard !storage.isEmpty else { return }
    let offset = serial - storage[start].serial
    guard offset >= 0, offset < storage.count else { return }
    let index = (start + offset) % storage.count
    guard storage[index].serial == serial else { return }
    change(&storage[index])
  }
}
