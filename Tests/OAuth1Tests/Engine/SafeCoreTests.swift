import Foundation
import PercentEncoding
import Testing

@testable import OAuth1

/// The memory primitives of the engine (``ByteWriter``, ``ScratchArena``): their byte tables
/// agree with `PercentEncoding`'s rules, and each bulk operation, which reserves its length
/// once and then works on memory, gives what the plain-Swift definitions give on random input,
/// also when it makes the writer outgrow its block and move (at every offset around the block's
/// end). (A failed read check stops the program, so it is not provoked here.)
@Suite("Safe core: ByteWriter and ScratchArena")
struct SafeCoreTests {
  static let rfc3986Unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

  @Test func byteTablesFollowPercentEncodingsRules() {
    for value in 0...255 {
      let byte = UInt8(value)
      // The one percent table (which ByteWriter reads) holds RFC 3986's unreserved set.
      #expect(PercentEncoding.isUnreserved(byte) == Self.rfc3986Unreserved.contains(byte), "unreserved: \(byte)")
      #expect(Self.accepts(RequestTarget.pathSafeBytes, byte) == PercentEncoding.isPathSafe(byte), "path: \(byte)")
      let hostByte = PercentEncoding.isUnreserved(byte) && byte != UInt8(ascii: "_") && byte != UInt8(ascii: "~")
      #expect(Self.accepts(RequestTarget.hostBytes, byte) == hostByte, "host: \(byte)")
      let lowercase = hostByte && !(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
      #expect(Self.accepts(RequestTarget.lowercaseHostBytes, byte) == lowercase, "lowercase host: \(byte)")
    }
  }

  @Test func encodingDecodingAndBase64MatchTheirDefinitions() {
    var random = SeededGenerator(seed: 22)
    for length in 0..<200 {
      // Mostly unreserved bytes, as keys and values are, with some of everything else.
      let bytes = (0..<length).map { _ in
        Bool.random(using: &random) ? UInt8(ascii: "a") &+ UInt8.random(in: 0..<26, using: &random) : UInt8.random(in: 0...255, using: &random)
      }
      let encoded = PercentEncoding.encode(bytes: bytes)
      ScratchArena.withBytes { out in
        let source = out.append(contentsOf: bytes)
        let start = out.count
        out.appendEncoded(copyOf: source)
        #expect(out.string(start..<out.count) == encoded, "encoded \(bytes)")
      }
      // The strict encoding is its own canonical form.
      ScratchArena.withBytes { out in
        let source = out.append(contentsOf: Array(encoded.utf8))
        let start = out.count
        let (stop, escapes, _) = out.appendCanonical(source, .header)
        #expect(stop == source.upperBound)
        #expect(out.string(start..<out.count) == encoded, "canonical \(bytes)")
        #expect(escapes == encoded.utf8.filter { $0 == UInt8(ascii: "%") }.count)
      }
      ScratchArena.withBytes { decoded in
        ScratchArena.withBytes { source in
          let range = source.append(contentsOf: Array(encoded.utf8))
          let plain = decoded.appendPercentDecoded(source, range, plusAsSpace: false)
          #expect(decoded.bytes(plain) == bytes, "decoded \(encoded)")
        }
      }
      ScratchArena.withBytes { doubled in
        ScratchArena.withBytes { source in
          let range = source.append(contentsOf: Array(encoded.utf8))
          doubled.appendDoublingPercents(source, range)
          #expect(doubled.string == encoded.replacingOccurrences(of: "%", with: "%25"))
        }
      }
      #expect(OAuthBase64.string(bytes, .standard) == Data(bytes).base64EncodedString(), "base64 of \(length) bytes")
      let urlSafe = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      #expect(OAuthBase64.string(bytes, .urlSafeUnpadded) == urlSafe.replacingOccurrences(of: "=", with: ""))
      #expect(OAuthBase64.string(bytes, .header) == PercentEncoding.encode(Data(bytes).base64EncodedString()))
    }
  }

  @Test func unreservedTextIsRecognizedEightBytesAtATime() {
    let unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    for length in 0...unreserved.count {
      let prefix = String(unreserved.prefix(length))
      #expect(ByteWriter.isUnreserved(prefix))
      for position in 0...length {
        var text = Array(prefix.utf8)
        text.insert(UInt8(ascii: "+"), at: position)
        #expect(!ByteWriter.isUnreserved(String(decoding: text, as: UTF8.self)), "\(text)")
      }
    }
  }

  @Test func decimalDigitsOfEveryMagnitude() {
    var values: [UInt64] = [0, 9, 10, 99, 100, 1_318_622_958, UInt64(Int64.max), .max]
    var power: UInt64 = 1
    for _ in 0..<19 {
      power *= 10
      values += [power - 1, power, power + 1]
    }
    for value in values {
      ScratchArena.withBytes { out in
        out.appendDecimal(value)
        #expect(out.string == String(value))
      }
    }
  }

  @Test func signedTimestampsKeepTheirDigits() throws {
    let signer = try OAuthSigner(consumer: Credentials(key: "key", secret: "secret"))
    let request = OAuthRequest(url: "https://api.example.com/items")
    for timestamp: Int64 in [0, 7, -1, 1_318_622_958, .max, .min] {
      let parameters = try signer.signedProtocolParameters(for: request, nonce: "n", timestamp: timestamp)
      #expect(parameters.first { $0.name == "oauth_timestamp" }?.value == String(timestamp))
    }
  }

  @Test("each operation gives the same bytes when it makes the writer move, at every offset around its block's end")
  func movingKeepsWhatWasWritten() {
    var random = SeededGenerator(seed: 48)
    let bytes = (0..<700).map { _ in UInt8.random(in: 0...255, using: &random) }
    let encoded = PercentEncoding.encode(bytes: bytes)
    let block = ScratchArena.blockBytes
    for offset in stride(from: block - 40, through: block + 2, by: 3) {
      // `offset` bytes written first, so that the operation crosses the end of the block.
      let filler = [UInt8](repeating: UInt8(ascii: "f"), count: offset)
      ScratchArena.withBytes { out in
        out.append(contentsOf: filler)
        let start = out.count
        out.appendEncoded(copyOf: out.append(contentsOf: bytes))
        #expect(out.string(start + bytes.count..<out.count) == encoded, "encoded after \(offset)")
        #expect(out.bytes(0..<offset) == filler && out.bytes(start..<start + bytes.count) == bytes)
      }
      ScratchArena.withBytes { out in
        out.append(contentsOf: filler)
        let source = out.append(contentsOf: Array(encoded.utf8))
        let start = out.count
        _ = out.appendCanonical(source, .header)
        #expect(out.string(start..<out.count) == encoded, "canonical after \(offset)")
      }
      ScratchArena.withBytes { doubled in
        ScratchArena.withBytes { source in
          doubled.append(contentsOf: filler)
          let range = source.append(contentsOf: Array(encoded.utf8))
          doubled.appendDoublingPercents(source, range)
          #expect(doubled.string(offset..<doubled.count) == encoded.replacingOccurrences(of: "%", with: "%25"), "doubled after \(offset)")
        }
      }
      ScratchArena.withBytes { out in
        out.append(contentsOf: filler)
        let source = out.append(contentsOf: bytes)
        let base64 = OAuthBase64.append(source, .header, in: &out)
        #expect(out.string(base64) == PercentEncoding.encode(Data(bytes).base64EncodedString()), "base64 after \(offset)")
        let decimal = out.count
        out.appendDecimal(UInt64(offset))
        #expect(out.string(decimal..<out.count) == String(offset))
      }
    }
  }

  @Test func listKeepsAndSortsWhatItHoldsAsItMoves() {
    var random = SeededGenerator(seed: 5)
    // More than a block holds (256 Int32s): the list moves twice.
    let values = (0..<1000).map { _ in Int32.random(in: -1000...1000, using: &random) }
    ScratchArena.withList(of: Int32.self) { list in
      for value in values { list.append(value) }
      list.sort(10..<400, by: <)
      let kept = (0..<list.count).map { list[$0] }
      #expect(kept[..<10] == values[..<10])
      #expect(kept[10..<400] == values[10..<400].sorted()[...])
      #expect(kept[400...] == values[400...])
    }
  }

  private static func accepts(_ table: StaticString, _ byte: UInt8) -> Bool {
    table.withUTF8Buffer { $0[Int(byte)] == UInt8(ascii: "1") }
  }
}
