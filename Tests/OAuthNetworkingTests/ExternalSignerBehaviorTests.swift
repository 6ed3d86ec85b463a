import Foundation
import NetworkClient
import NetworkClientTesting
import OAuth1
import OAuthNetworking
import Testing

/// ``OAuthRequestBehavior`` with an `OAuthExternalSigner`: the signature each request carries is
/// the one the external signer returned for that request's base string, in the header or the
/// query, and a retry is signed again.
@Suite("OAuthRequestBehavior with an external signer")
struct ExternalSignerBehaviorTests {
  actor Recorder {
    var baseStrings: [String] = []
    func record(_ bytes: [UInt8]) -> Int {
      baseStrings.append(String(decoding: bytes, as: UTF8.self))
      return baseStrings.count
    }
  }

  func behavior(_ recorder: Recorder, placement: OAuthRequestBehavior.Placement, onSign: (@Sendable (String) -> Void)? = nil)
    -> OAuthRequestBehavior
  {
    let external = OAuthExternalSigner { bytes in
      let count = await recorder.record(bytes)
      return [UInt8](repeating: UInt8(count), count: 3)
    }
    return OAuthRequestBehavior(
      consumer: Credentials(key: "ck", secret: ""), token: Credentials(key: "tk", secret: ""),
      configuration: .init(signatureMethod: .rsaSHA256, externalSigner: external), placement: placement, onSign: onSign)
  }

  @Test func theHeaderCarriesTheExternalSignature() async throws {
    let recorder = Recorder()
    let stub = StubTransport(fallback: .status(200))
    let client = NetworkClient(baseURL: URL(string: "https://api.example.test")!, behavior: behavior(recorder, placement: .header), transport: stub)
    _ = try await client.send(Request<Data>(method: .get, path: "v1/accounts", query: [("page", "2")]))
    let header = try #require(stub.requests.first?.headers["Authorization"])
    let fields = try OAuthAuthorizationHeader.parse(header).parameters
    #expect(fields.first { $0.name == "oauth_signature" }?.value == Data([1, 1, 1]).base64EncodedString())
    let given = await recorder.baseStrings
    #expect(given.count == 1)
    #expect(given.first?.hasPrefix("GET&https%3A%2F%2Fapi.example.test%2Fv1%2Faccounts&oauth_consumer_key%3Dck") == true)
    #expect(given.first?.contains("page%3D2") == true)
  }

  @Test func theQueryCarriesItAndOnSignSeesTheBaseString() async throws {
    let recorder = Recorder()
    let seen = SeenBaseStrings()
    let stub = StubTransport(fallback: .status(200))
    let client = NetworkClient(
      baseURL: URL(string: "https://api.example.test")!, behavior: behavior(recorder, placement: .query) { seen.add($0) }, transport: stub)
    _ = try await client.send(Request<Data>(method: .get, path: "v1/accounts"))
    let url = try #require(stub.requests.first?.url.absoluteString)
    #expect(url.contains("oauth_signature=AQEB"), "\(url)")
    #expect(seen.all == (await recorder.baseStrings))
  }

  final class SeenBaseStrings: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String] = []
    func add(_ value: String) { lock.withLock { values.append(value) } }
    var all: [String] { lock.withLock { values } }
  }
}
