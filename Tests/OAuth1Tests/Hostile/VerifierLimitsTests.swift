import Foundation
import OAuth1
import TestSupport
import Testing

/// Every ``OAuthVerifier/Limits`` limit refuses a request past it as `parameter_rejected`, with
/// the status an HTTP server gives it, quickly and without reading it; a request at the limit
/// is read as before.
@Suite("OAuthVerifier.Limits")
struct VerifierLimitsTests {
  static let now: Int64 = 1_700_000_000
  static let required =
    "oauth_consumer_key=app-key&oauth_signature_method=HMAC-SHA1&oauth_timestamp=1700000000&oauth_nonce=n&oauth_signature=AAAA"

  static func verifier(_ limits: OAuthVerifier.Limits = .init()) -> OAuthVerifier {
    OAuthVerifier(
      credentials: InMemoryCredentialLookup(consumers: ["app-key": OAuthConsumer(secret: "app-secret")], tokens: [:]),
      options: .init(clock: FixedClock(seconds: now), limits: limits))
  }

  /// The bound on a refusal that reads no further than its limit, in wall-clock seconds: 5 s
  /// (scaled), since the verifying task may wait for a thread of a busy pool; reading the whole
  /// 16 to 64 MB inputs below takes longer than that in a debug build, and the error each names
  /// is the exact check.
  static let refusedAtOnce = TestTiming.seconds(5)

  /// The error `request` is refused with, and how long that took.
  static func refusal(
    _ request: OAuthRequest, authorization: String? = nil, limits: OAuthVerifier.Limits = .init()
  ) async -> (error: OAuthVerificationError?, seconds: Double) {
    let start = Date()
    do {
      _ = try await verifier(limits).verify(request, authorization: authorization)
      return (nil, Date().timeIntervalSince(start))
    } catch {
      return (error, Date().timeIntervalSince(start))
    }
  }

  static func get(_ query: String) -> OAuthRequest { OAuthRequest(method: "GET", url: "https://api.example.com/x?" + query) }

  static func post(_ body: Data, contentType: String = "application/x-www-form-urlencoded") -> OAuthRequest {
    OAuthRequest(method: "POST", url: "https://api.example.com/x", body: body, contentType: contentType)
  }

  /// Whether `error` is a limit's refusal: `parameter_rejected` with `status`, naming `setting`.
  static func isLimit(_ error: OAuthVerificationError?, status: Int, setting: String) -> Bool {
    guard let error else { return false }
    return error.problem == .parameterRejected && error.httpStatus == status && error.response().status == status
      && error.advice.contains("OAuthVerifier.Limits.\(setting)")
  }

  @Test func theDefaults() {
    let limits = OAuthVerifier.Limits()
    #expect(limits.maximumURLBytes == 65_536)
    #expect(limits.maximumAuthorizationHeaderBytes == 16_384)
    #expect(limits.maximumFormBodyBytes == 16_777_216)
    #expect(limits.maximumParameters == 10_000)
    #expect(limits.maximumProtocolParameters == 64)
    #expect(OAuthVerifier.Options().limits == limits)
  }

  @Test func aURLPastTheLimitIs414() async {
    let prefix = "https://api.example.com/x?"
    let atLimit = OAuthRequest(method: "GET", url: prefix + String(repeating: "a", count: 65_536 - prefix.utf8.count))
    let read = await Self.refusal(atLimit)
    #expect(read.error?.problem == .parameterAbsent, "\(String(describing: read.error))")
    var over = atLimit
    over.url += "b"
    #expect(Self.isLimit(await Self.refusal(over).error, status: 414, setting: "maximumURLBytes"))
    // 64 MB of URL: refused by its length, unread.
    let huge = await Self.refusal(Self.get(String(repeating: "oauth_x=1&", count: 6_400_000)))
    #expect(Self.isLimit(huge.error, status: 414, setting: "maximumURLBytes"))
    #expect(huge.seconds < Self.refusedAtOnce, "\(huge.seconds) s")
  }

  @Test func anOAuthHeaderPastTheLimitIs431AndAnotherSchemeIsNotRead() async {
    let start = "OAuth oauth_consumer_key=\"app-key\", oauth_x=\""
    let atLimit = start + String(repeating: "a", count: 16_384 - start.utf8.count - 1) + "\""
    let read = await Self.refusal(Self.get(""), authorization: atLimit)
    #expect(read.error?.problem == .parameterAbsent, "\(String(describing: read.error))")
    let over = await Self.refusal(Self.get(""), authorization: atLimit + " ")
    #expect(Self.isLimit(over.error, status: 431, setting: "maximumAuthorizationHeaderBytes"))
    // Leading white space and the scheme's case do not hide it.
    let spelled = await Self.refusal(Self.get(""), authorization: " \toAUTH" + String(repeating: " ", count: 20_000))
    #expect(Self.isLimit(spelled.error, status: 431, setting: "maximumAuthorizationHeaderBytes"))
    // A 1 MB bearer token is not the verifier's to read: the request just lacks OAuth.
    let bearer = await Self.refusal(Self.get(""), authorization: "Bearer " + String(repeating: "t", count: 1 << 20))
    #expect(bearer.error?.problem == .parameterAbsent, "\(String(describing: bearer.error))")
  }

  @Test func aFormBodyPastTheLimitIs413AndAnotherBodyIsNotParsed() async {
    let limits = OAuthVerifier.Limits(maximumFormBodyBytes: 4096)
    let atLimit = Data(("a=" + String(repeating: "b", count: 4094)).utf8)
    let read = await Self.refusal(Self.post(atLimit), limits: limits)
    #expect(read.error?.problem == .parameterAbsent, "\(String(describing: read.error))")
    let over = await Self.refusal(Self.post(atLimit + Data("c".utf8)), limits: limits)
    #expect(Self.isLimit(over.error, status: 413, setting: "maximumFormBodyBytes"))
    // The default: 16 MiB and a byte, unread.
    let huge = await Self.refusal(Self.post(Data(repeating: UInt8(ascii: "a"), count: (16 << 20) + 1)))
    #expect(Self.isLimit(huge.error, status: 413, setting: "maximumFormBodyBytes"))
    #expect(huge.seconds < Self.refusedAtOnce, "\(huge.seconds) s")
    // A JSON body is not a form: not parsed, not limited here.
    let json = await Self.refusal(Self.post(atLimit + Data("c".utf8), contentType: "application/json"), limits: limits)
    #expect(json.error?.problem == .parameterAbsent, "\(String(describing: json.error))")
  }

  @Test func moreParametersThanTheLimitAreRefusedWhereTheCountRanOver() async {
    let limits = OAuthVerifier.Limits(maximumParameters: 100, maximumProtocolParameters: 1000)
    let pairs = (0..<95).map { "p\($0)=1" }.joined(separator: "&")  // With the five required ones: 100.
    let atLimit = await Self.refusal(Self.get(pairs + "&" + Self.required), limits: limits)
    #expect(atLimit.error?.problem == .signatureInvalid, "\(String(describing: atLimit.error))")
    let query = await Self.refusal(Self.get(pairs + "&" + Self.required + "&one=more"), limits: limits)
    #expect(Self.isLimit(query.error, status: 414, setting: "maximumParameters"))
    // Counted across the query and the form body: the 101st is in the body.
    let form = await Self.refusal(
      OAuthRequest(
        method: "POST", url: "https://api.example.com/x?" + pairs, body: Data((Self.required + "&one=more").utf8),
        contentType: "application/x-www-form-urlencoded"), limits: limits)
    #expect(Self.isLimit(form.error, status: 413, setting: "maximumParameters"))
    let fields = (0..<101).map { "oauth_x\($0)=\"1\"" }.joined(separator: ", ")
    let header = await Self.refusal(Self.get(""), authorization: "OAuth " + fields, limits: limits)
    #expect(Self.isLimit(header.error, status: 431, setting: "maximumParameters"))
    // Empty pairs (`&&`) are not parameters; a name without a value is one.
    let sparse = await Self.refusal(Self.get(String(repeating: "&", count: 10_000) + Self.required), limits: limits)
    #expect(sparse.error?.problem == .signatureInvalid, "\(String(describing: sparse.error))")
    // The default: 100,000 pairs stop at the 10,001st.
    let many = await Self.refusal(Self.post(Data(String(repeating: "k=v&", count: 100_000).utf8)))
    #expect(Self.isLimit(many.error, status: 413, setting: "maximumParameters"))
    #expect(many.seconds < Self.refusedAtOnce, "\(many.seconds) s")
  }

  @Test func moreOAuthParametersThanTheLimitAre400RepeatsIncluded() async {
    let names = (0..<59).map { "oauth_x\($0)=1" }.joined(separator: "&")  // With the five required ones: 64.
    let atLimit = await Self.refusal(Self.get(names + "&" + Self.required))
    #expect(atLimit.error?.problem == .signatureInvalid, "\(String(describing: atLimit.error))")
    let over = await Self.refusal(Self.get(names + "&" + Self.required + "&oauth_y=1"))
    #expect(Self.isLimit(over.error, status: 400, setting: "maximumProtocolParameters"))
    // One name 65 times: the limit, not a list of 64 repeats.
    let repeated = await Self.refusal(Self.get(Array(repeating: "oauth_nonce=n", count: 65).joined(separator: "&")))
    #expect(Self.isLimit(repeated.error, status: 400, setting: "maximumProtocolParameters"))
    let header = (0..<65).map { "oauth_x\($0)=\"1\"" }.joined(separator: ", ")
    #expect(Self.isLimit(await Self.refusal(Self.get(""), authorization: "OAuth " + header).error, status: 400, setting: "maximumProtocolParameters"))
    // Other parameters do not count.
    let others = (0..<1000).map { "p\($0)=1" }.joined(separator: "&")
    let plain = await Self.refusal(Self.get(others + "&" + Self.required))
    #expect(plain.error?.problem == .signatureInvalid, "\(String(describing: plain.error))")
  }

  /// Zero and negative limits refuse everything of their kind; none traps.
  @Test(arguments: [0, -1, Int.min])
  func zeroAndNegativeLimitsRefuse(value: Int) async {
    let limits = OAuthVerifier.Limits(
      maximumURLBytes: .max, maximumAuthorizationHeaderBytes: value, maximumFormBodyBytes: value, maximumParameters: .max,
      maximumProtocolParameters: value)
    #expect(Self.isLimit(await Self.refusal(Self.post(Data("a".utf8)), limits: limits).error, status: 413, setting: "maximumFormBodyBytes"))
    let header = await Self.refusal(Self.get(""), authorization: "OAuth", limits: limits)
    #expect(Self.isLimit(header.error, status: 431, setting: "maximumAuthorizationHeaderBytes"))
    let protocolOnly = await Self.refusal(Self.get("oauth_nonce=n"), limits: limits)
    #expect(Self.isLimit(protocolOnly.error, status: 400, setting: "maximumProtocolParameters"))
    let counted = OAuthVerifier.Limits(maximumURLBytes: value, maximumParameters: value)
    #expect(Self.isLimit(await Self.refusal(Self.get(""), limits: counted).error, status: 414, setting: "maximumURLBytes"))
    let noURLLimit = OAuthVerifier.Limits(maximumParameters: value)
    #expect(Self.isLimit(await Self.refusal(Self.get("a"), limits: noURLLimit).error, status: 414, setting: "maximumParameters"))
  }

  /// A request with thousands of bad names gets an error that lists a few and counts the rest.
  @Test func errorsListAFewNamesAndCountTheRest() async {
    let limits = OAuthVerifier.Limits.engineMaximum
    let repeated = (0..<1000).map { "oauth_x\($0)=1&oauth_x\($0)=2" }.joined(separator: "&")
    let duplicates = await Self.refusal(Self.get(repeated), limits: limits).error
    #expect(duplicates?.advice.hasSuffix("oauth_x15 and 984 more") == true, "\(String(describing: duplicates?.advice))")
    #expect(duplicates?.parameters.count == 16)
    let foreign = (0..<1000).map { "x\($0)=\"1\"" }.joined(separator: ", ")
    let header = await Self.refusal(Self.get(""), authorization: "OAuth oauth_nonce=\"n\", " + foreign, limits: limits).error
    #expect(header?.advice.hasSuffix("x15 and 984 more") == true, "\(String(describing: header?.advice))")
    #expect(header?.parameters.count == 16)
  }
}
