import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLSession {
  /// The session tests use for their own requests to the servers they start (control
  /// endpoints, a revocation, a page a browser would load): `URLSession.shared` gives up on an
  /// answer after 60 s, which a loopback server behind Python's checker once overran on a machine
  /// whose two cores were held by busy loops and builds (`NSURLErrorDomain -1001` in
  /// `OAuth2CommandTests`). This one waits 300 s (scaled by ``TestTiming``): a bound for a hang,
  /// not a measure of speed.
  public static let tests: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = TestTiming.seconds(300)
    configuration.timeoutIntervalForResource = TestTiming.seconds(600)
    configuration.urlCache = nil
    return URLSession(configuration: configuration)
  }()
}
