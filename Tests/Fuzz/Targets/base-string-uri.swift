// Fuzz target: base string URI normalization. Properties: never crashes; normalizing a
// normalized URI changes nothing (idempotent); the engine's fast reader of ordinary URLs
// agrees with its general routine (``OAuthURLComponents``): the same URI, or both refuse.
import Foundation

@testable import OAuth1

// libFuzzer's entry point in the fuzz build (.ci/fuzz defines FUZZING); in `swift test` the
// same function runs over the stored corpus (Tests/Fuzz/FuzzPropertyTests.swift).
#if FUZZING
  @_cdecl("LLVMFuzzerTestOneInput")
#endif
public func fuzzBaseStringURI(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let url = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
  let engine = try? OAuthBaseStringURI.make(url: url)
  let general = (try? OAuthURLComponents(url)).map(OAuthBaseStringURI.make)
  require(
    engine == general,
    "fast reader and general routine differ on \(url.debugDescription): \(String(describing: engine)) vs \(String(describing: general))")
  if let engine {
    let again = try? OAuthBaseStringURI.make(url: engine)
    require(again == engine, "not idempotent: \(url.debugDescription) -> \(engine.debugDescription) -> \(String(describing: again))")
  }
  return 0
}
