import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The transport every client of the package uses unless given another: ``CurlTransport`` on
/// Linux (flat memory however many requests a service sends) when the system's libcurl can be
/// loaded, ``URLSessionTransport`` otherwise and on Apple platforms. Both follow no redirect and
/// keep no cookie or cache; ``name`` and ``reason`` say which one runs and why, for a tool's
/// `--verbose`.
///
/// ```swift
/// let transport = DefaultTransport()
/// print(transport.name, transport.reason)  // CurlTransport libcurl 7.88.1
/// let client = NetworkClient(baseURL: api, transport: transport)
/// ```
public struct DefaultTransport: HTTPTransport, HTTPStreamingTransport {
  private let base: any HTTPTransport & HTTPStreamingTransport
  /// The transport that runs: `"CurlTransport"` or `"URLSessionTransport"`.
  public let name: String
  /// Why that one: libcurl's version, or why libcurl could not be used.
  public let reason: String

  /// The platform's transport: ``CurlTransport`` on Linux where libcurl loads, else
  /// ``URLSessionTransport``.
  public init() {
    #if os(Linux)
      if let problem = CurlLibrary.unavailableReason {
        self.init(URLSessionTransport(), reason: "\(problem): FoundationNetworking's URLSession instead")
      } else {
        self.init(CurlTransport(), reason: "libcurl \(CurlLibrary.version ?? "")")
      }
    #else
      self.init(URLSessionTransport(), reason: "the platform's URLSession")
    #endif
  }

  private init(_ base: some HTTPTransport & HTTPStreamingTransport, reason: String) {
    self.base = base
    self.name = String(describing: type(of: base))
    self.reason = reason
  }

  /// Sends `request` on the chosen transport.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    try await base.send(request)
  }

  /// Opens `request` on the chosen transport, its body bounded as ``StreamBuffer`` says.
  public func open(_ request: HTTPRequest) async throws -> HTTPStreamingResponse {
    try await base.open(request)
  }
}
