import OAuth1
import Testing

@Suite("Stage 1: percent-encoding")
struct PercentEncodingTests {
  @Test func unreservedCharactersStayAsTheyAre() {
    let unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    #expect(OAuthPercentEncoding.encode(unreserved) == unreserved)
  }

  @Test func everyOtherASCIIByteIsEncodedWithUppercaseHex() {
    for byte in UInt8(0)...UInt8(127) where !OAuthPercentEncoding.isUnreserved(byte) {
      let expected = "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
      #expect(OAuthPercentEncoding.encode(String(UnicodeScalar(byte))) == expected)
    }
  }

  @Test func charactersFoundationLeavesAloneAreEncoded() {
    #expect(OAuthPercentEncoding.encode("+*!'()[] ") == "%2B%2A%21%27%28%29%5B%5D%20")
  }

  @Test func multiByteCharactersAreEncodedByteByByte() {
    #expect(OAuthPercentEncoding.encode("é") == "%C3%A9")
    #expect(OAuthPercentEncoding.encode("☃") == "%E2%98%83")
    #expect(OAuthPercentEncoding.encode("😀") == "%F0%9F%98%80")
    #expect(OAuthPercentEncoding.encode(bytes: [0x00, 0xFF]) == "%00%FF")
  }

  @Test func decodingAcceptsEitherCaseAndPlusOnlyWhenAsked() {
    #expect(OAuthPercentEncoding.decode("%2b%2C") == "+,")
    #expect(OAuthPercentEncoding.decode("a+b") == "a+b")
    #expect(OAuthPercentEncoding.decode("a+b", plusAsSpace: true) == "a b")
    #expect(OAuthPercentEncoding.decode("%F0%9F%98%80") == "😀")
  }

  @Test func malformedEscapesAreKeptNotDropped() {
    #expect(OAuthPercentEncoding.decode("100%") == "100%")
    #expect(OAuthPercentEncoding.decode("%4") == "%4")
    #expect(OAuthPercentEncoding.decode("%zz%41") == "%zzA")
  }

  @Test func bytesThatAreNotUTF8DecodeToNil() {
    #expect(OAuthPercentEncoding.decode("%FF") == nil)
    #expect(OAuthPercentEncoding.decode("%C3") == nil)
    #expect(OAuthPercentEncoding.decodeBytes("%FF".utf8) == [0xFF])
  }

  @Test(arguments: ["", "plain", "a b+c", "100% ~ *", "Ladies + Gentlemen", "日本語 😀 \u{0}"])
  func decodeInvertsEncode(_ text: String) {
    #expect(OAuthPercentEncoding.decode(OAuthPercentEncoding.encode(text)) == text)
  }
}

extension String {
  func leftPadded(to length: Int) -> String {
    count >= length ? self : String(repeating: "0", count: length - count) + self
  }
}
