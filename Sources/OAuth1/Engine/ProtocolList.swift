/// The protocol parameters of one signature, in name order (their order in the base string
/// and in the header), written to the signature's protocol writer: the signer's values, encoded
/// once when it was made (``ProtocolConstants``), and this request's nonce, timestamp and body
/// hash, each right after its name; `oauth_signature` gets its slot, filled once the signature is
/// computed (``appendSignature(_:of:_:_:)``), in the same writer.
struct ProtocolList {
  /// Where the pairs are in the list.
  let pairs: Range<Int>
  /// The slot of `oauth_signature`.
  let signatureSlot: Int

  /// The pairs in signing order with the request's own pairs (`request`).
  func signingOrder(request: Range<Int>) -> SigningOrder {
    SigningOrder(request: request, protocolPairs: pairs, signatureSlot: signatureSlot)
  }

  /// Lists the protocol parameters of one request: `nonce` is the chosen one, decoded, or
  /// `nil` for a fresh random one; `bodyHash` is already encoded. Ten pairs at most.
  static func append(
    _ constants: ProtocolConstants, nonce: String?, timestamp: Int64, bodyHash: String?, _ bytes: inout ByteWriter,
    _ pairs: inout ScratchArena.List<EncodedPair>
  ) throws(OAuthError) -> ProtocolList {
    let first = pairs.count
    if let bodyHash {
      let start = bytes.count
      bytes.append(ProtocolParameterName.bodyHash.staticText)
      let nameEnd = bytes.count
      bytes.append(contentsOf: bodyHash)
      pairs.append(
        EncodedPair(name: start..<nameEnd, valueEnd: bytes.count, percents: bytes.occurrences(of: UInt8(ascii: "%"), in: nameEnd..<bytes.count)))
    }
    if let callback = constants.callback { appendPair(.callback, callback, &bytes, &pairs) }
    appendPair(.consumerKey, constants.consumerKey, &bytes, &pairs)
    let start = bytes.count
    if let nonce {
      bytes.append(ProtocolParameterName.nonce.staticText)
      let nameEnd = bytes.count
      let encoded = bytes.appendEncoded(nonce)
      pairs.append(EncodedPair(name: start..<nameEnd, valueEnd: encoded.upperBound, percents: (encoded.count - nonce.utf8.count) / 2))
    } else {
      // URL-safe base64: nothing to encode.
      let random = try Crypto.appendRandom(OAuthNonce.randomBytes, to: &bytes)
      let nameStart = bytes.count
      bytes.append(ProtocolParameterName.nonce.staticText)
      let nameEnd = bytes.count
      OAuthBase64.append(random, .urlSafeUnpadded, in: &bytes)
      pairs.append(EncodedPair(name: nameStart..<nameEnd, valueEnd: bytes.count, percents: 0))
    }
    let signatureSlot = pairs.count
    pairs.append(EncodedPair(name: 0..<0, valueEnd: 0, percents: 0))
    let methodStart = bytes.count
    bytes.append(ProtocolParameterName.signatureMethod.staticText)
    let methodNameEnd = bytes.count
    bytes.append(constants.signatureMethod.staticName)
    pairs.append(EncodedPair(name: methodStart..<methodNameEnd, valueEnd: bytes.count, percents: 0))
    let timestampStart = bytes.count
    bytes.append(ProtocolParameterName.timestamp.staticText)
    let timestampNameEnd = bytes.count
    appendDecimal(timestamp, to: &bytes)
    pairs.append(EncodedPair(name: timestampStart..<timestampNameEnd, valueEnd: bytes.count, percents: 0))
    if let token = constants.token { appendPair(.token, token, &bytes, &pairs) }
    if let verifier = constants.verifier { appendPair(.verifier, verifier, &bytes, &pairs) }
    if constants.includeVersion {
      let start = bytes.count
      bytes.append(ProtocolParameterName.version.staticText)
      let nameEnd = bytes.count
      bytes.append("1.0")
      pairs.append(EncodedPair(name: start..<nameEnd, valueEnd: bytes.count, percents: 0))
    }
    return ProtocolList(pairs: first..<pairs.count, signatureSlot: signatureSlot)
  }

  /// Lists `name` with `value`, already encoded, right after it.
  @inline(__always)
  private static func appendPair(
    _ name: ProtocolParameterName, _ value: ProtocolConstants.Value, _ bytes: inout ByteWriter, _ pairs: inout ScratchArena.List<EncodedPair>
  ) {
    let start = bytes.count
    bytes.append(name.staticText)
    let nameEnd = bytes.count
    let end = bytes.append(contentsOf: value.encoded).upperBound
    pairs.append(EncodedPair(name: start..<nameEnd, valueEnd: end, percents: value.escapes))
  }

  /// Computes `oauth_signature` for `baseString` with `key` and puts it in its slot.
  func appendSignature(
    _ key: SignatureKey, of baseString: borrowing ByteWriter, _ bytes: inout ByteWriter, _ pairs: inout ScratchArena.List<EncodedPair>
  ) throws(OAuthError) {
    let raw = try key.appendRawSignature(of: baseString, to: &bytes)
    let start = bytes.count
    bytes.append(ProtocolParameterName.signature.staticText)
    let nameEnd = bytes.count
    key.appendValue(raw: raw, encoded: true, to: &bytes)
    // Never part of a base string, so its `%` need no count.
    pairs[signatureSlot] = EncodedPair(name: start..<nameEnd, valueEnd: bytes.count, percents: 0)
  }

  /// Appends the decimal digits of a timestamp (at most 20 bytes, sign included).
  private static func appendDecimal(_ value: Int64, to out: inout ByteWriter) {
    if value < 0 { out.append(UInt8(ascii: "-")) }
    out.appendDecimal(value.magnitude)
  }
}
