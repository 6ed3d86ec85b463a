// Fuzz target: the X JSON decoders (v2 envelopes, v1.1 tweets and users, error bodies).
// Property: any body is a value or a decoding error, never a crash, and decoded tweets can be
// turned into the public `Tweet`.
import Foundation

@testable import XAPI

// libFuzzer's entry point in the fuzz build (.ci/fuzz defines FUZZING); in `swift test` the
// same function runs over the stored corpus (Tests/Fuzz/FuzzPropertyTests.swift).
#if FUZZING
  @_cdecl("LLVMFuzzerTestOneInput")
#endif
public func fuzzXJSON(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)
  let decoder = JSONDecoder()
  if let page = try? decoder.decode(V2Envelope<[V2Tweet]>.self, from: data) { _ = page.tweets }
  if let one = try? decoder.decode(V2Envelope<V2Tweet>.self, from: data) { _ = one.tweet }
  _ = try? decoder.decode(V2Envelope<V2User>.self, from: data)
  if let tweets = try? decoder.decode([V1Tweet].self, from: data) { _ = tweets.map(\.tweet) }
  if let search = try? decoder.decode(V1SearchResponse.self, from: data) { _ = search.statuses.map(\.tweet) }
  if let user = try? decoder.decode(V1User.self, from: data) { _ = user.user }
  _ = try? decoder.decode(XProblem.self, from: data)
  _ = XErrorBody(data)
  return 0
}
