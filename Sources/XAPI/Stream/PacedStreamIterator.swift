/// The iterator of ``FilteredStream`` and ``ActivityStream``: delivers what the stream's
/// connections bring (posts, events), in order, and no faster than they are taken. Its reader of
/// the network runs in a task of its own and waits, 64 elements ahead, for the
/// consumer to catch up; ending the iteration (or dropping the iterator) ends that task and the
/// connection.
///
/// ```swift
/// var events = app.v2.activityStream().makeAsyncIterator()
/// while let event = try await events.next() { print(event.type) }
/// ```
public struct PacedStreamIterator<Element: Sendable>: AsyncIteratorProtocol {
  var items: AsyncThrowingStream<Element, any Error>.AsyncIterator
  let pacer: StreamPacer

  /// The next element: waits through reconnects; throws an ``XError`` when the stream cannot go on.
  public mutating func next() async throws -> Element? {
    let item = try await items.next()
    if item != nil { pacer.taken() }
    return item
  }
}

extension ReconnectingStream {
  /// An iterator over the elements `drive` reads, in a task that ends with the iteration.
  func makeIterator() -> PacedStreamIterator<Element> {
    let (items, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
    let pacer = StreamPacer()
    let driver = Task { await drive(continuation, pacer: pacer) }
    continuation.onTermination = { _ in
      pacer.cancel()
      driver.cancel()
    }
    return PacedStreamIterator(items: items.makeAsyncIterator(), pacer: pacer)
  }
}
