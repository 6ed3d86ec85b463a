import OAuth1
import PercentEncoding
import Testing

@Suite("Stages 2 and 3: parameter collection and normalization")
struct ParameterTests {
  @Test func duplicatesAndOrderAreKept() throws {
    let parameters = try OAuthParameterCollection.collect(query: "id=2&id=1&ID=3", formBody: nil, protocolParameters: [])
    #expect(parameters == [OAuthParameter("id", "2"), OAuthParameter("id", "1"), OAuthParameter("ID", "3")])
  }

  @Test func plusIsASpaceInQueryAndFormButAnEncodedPlusIsAPlus() throws {
    let parameters = try OAuthParameterCollection.collect(query: "q=a+b%2Bc", formBody: Array("f=x+y".utf8), protocolParameters: [])
    #expect(parameters == [OAuthParameter("q", "a b+c"), OAuthParameter("f", "x y")])
  }

  @Test func emptySegmentsAreSkippedAndBareNamesHaveEmptyValues() throws {
    let parameters = try OAuthParameterCollection.parseForm("&&a&b=&=c&".utf8, source: .query)
    #expect(parameters == [OAuthParameter("a", ""), OAuthParameter("b", ""), OAuthParameter("", "c")])
  }

  /// The engine finds a form's pairs in the same pass that re-encodes them; the package's
  /// general splitter, `PercentEncoding.forEachFormPair`, does only the splitting. On random
  /// forms of separators, escapes (valid, invalid, lowercase) and plain bytes, both give the
  /// same pairs.
  @Test func theEngineSplitsFormsAsTheGeneralSplitterDoes() throws {
    var generator = SystemRandomNumberGenerator()
    // No hex letters among the plain pieces: every escape decodes to ASCII, which both accept.
    let pieces = ["x", "Q", "~", "&", "=", "+", "%2f", "%2F", "%zz", "%", "%4", "%26", "%3D", "%20", " ", "!", "oauth_signature"]
    for _ in 0..<2_000 {
      let form = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
      let engine = try OAuthParameterCollection.parseForm(form.utf8, source: .query)
      let general = PercentEncoding.decodeForm(form).filter { $0.name != "oauth_signature" }.map { OAuthParameter($0.name, $0.value) }
      #expect(engine == general, "\(form)")
    }
  }

  @Test func signatureIsNeverSignedAndRealmOnlyFromTheHeader() throws {
    let parameters = try OAuthParameterCollection.collect(
      query: "oauth_signature=x&realm=q", formBody: Array("oauth_signature=y".utf8),
      protocolParameters: [OAuthParameter("realm", "h"), OAuthParameter("oauth_signature", "z"), OAuthParameter("oauth_nonce", "n")])
    #expect(parameters == [OAuthParameter("realm", "q"), OAuthParameter("oauth_nonce", "n")])
  }

  @Test func valuesThatAreNotUTF8AreRefusedByName() {
    #expect(throws: OAuthError.invalidParameterEncoding(source: .query, parameter: "name")) {
      try OAuthParameterCollection.collect(query: "name=%FF", formBody: nil, protocolParameters: [])
    }
    #expect(throws: OAuthError.invalidParameterEncoding(source: .formBody, parameter: "%FE")) {
      try OAuthParameterCollection.collect(query: nil, formBody: Array("%FE=1".utf8), protocolParameters: [])
    }
    #expect(throws: OAuthError.invalidParameterEncoding(source: .formBody, parameter: "raw")) {
      try OAuthParameterCollection.collect(query: nil, formBody: Array("raw=".utf8) + [0xFF], protocolParameters: [])
    }
  }

  @Test func sortingIsOnEncodedNamesThenEncodedValues() {
    let parameters = [
      OAuthParameter("id_10", "1"), OAuthParameter("id_1", "1"), OAuthParameter("a3", "a"), OAuthParameter("a3", "2 q"),
      OAuthParameter("B", "1"), OAuthParameter("a", "1"), OAuthParameter("~", "1"), OAuthParameter("é", "1"),
    ]
    // "é" encodes to "%C3%A9", and "%" (0x25) sorts before every letter.
    #expect(
      OAuthParameterNormalization.normalize(parameters)
        == "%C3%A9=1&B=1&a=1&a3=2%20q&a3=a&id_1=1&id_10=1&~=1")
    #expect(OAuthParameterNormalization.sorted(parameters).map(\.name) == ["é", "B", "a", "a3", "a3", "id_1", "id_10", "~"])
    #expect(OAuthParameterNormalization.normalize([]) == "")
  }
}
