/// The protocol parameters of one signature, in name order (their order in the base string
/// and in the header), written to the signature's protocol writer: the signer's credentials and
/// settings, encoded as they are written, and this request's nonce, timestamp and body hash,
/// each right after its name; `oauth_signature` gets its slot, filled once the signature is
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

  /// The bytes ``append(_:nonce:timestamp:bodyHash:_:_:)`` and ``appendSignature(_:of:_:_:)``
  /// take for a signer's `constants` and `key` (`nonce` and `bodyHash` as given to them).
  static func room(_ constants: ProtocolConstants, _ key: SignatureKey, nonce: String?, bodyHash: String?) -> Int {
    let nonceRoom = nonce.map { 3 * $0.utf8.count } ?? OAuthNonce.randomRoom
    return constants.text.utf8.count + 3 * ProtocolParameterName.longest + nonceRoom + 20 + (bodyHash?.utf8.count ?? 0) + key.room
  }

  /// Lists the protocol parameters of one request: `nonce` is the chosen one, decoded, or
  /// `nil` for a fresh random one; `bodyHash` is already encoded. `bytes` must be empty: the
  /// constants go first, where their pairs point. Ten pairs at most.
  static func append(
    _ constants: ProtocolConstants, nonce: String?, timestamp: Int64, bodyHash: String?, _ bytes: inout ByteWriter,
    _ pairs: inout FixedList<EncodedPair>
  ) throws(OAuthError) -> ProtocolList {
    precondition(bytes.count == 0, "ProtocolList: the constants' pairs point to the start of the writer")
    bytes.append(contentsOf: constants.text)
    let first = pairs.count
    if let bodyHash {
      let start = bytes.count
      bytes.append(ProtocolParameterName.bodyHash.staticText)
      let nameEnd = bytes.count
      bytes.append(contentsOf: bodyHash)
      pairs.append(
        EncodedPair(name: start..<nameEnd, valueEnd: bytes.count, percents: bytes.occurrences(of: UInt8(ascii: "%"), in: nameEnd..<bytes.count)))
    }
    if let callback = constants.callback { pairs.append(callback) }
    pairs.append(constants.consumerKey)
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
      Base64.append(random, .urlSafeUnpadded, in: &bytes)
      pairs.append(EncodedPair(name: nameStart..<nameEnd, valueEnd: bytes.count, percents: 0))
    }
    let signatureSlot = pairs.count
    pairs.append(EncodedPair(name: 0..<0, valueEnd: 0, percents: 0))
    pairs.append(constants.signatureMethod)
    let timestampStart = bytes.count
    bytes.append(ProtocolParameterName.timestamp.staticText)
    let timestampNameEnd = bytes.count
    appendDecimal(timestamp, to: &bytes)
    pairs.append(EncodedPair(name: timestampStart..<timestampNameEnd, valueEnd: bytes.count, percents: 0))
    if let token = constants.token { pairs.append(token) }
    if let verifier = constants.verifier { pairs.append(verifier) }
    if let version = constants.version { pairs.append(version) }
    return ProtocolList(pairs: first..<pairs.count, signatureSlot: signatureSlot)
  }

  /// Computes `oauth_signature` for `baseString` with `key` and puts it in its slot.
  func appendSignature(
    _ key: SignatureKey, of baseString: borrowing ByteWriter, _ bytes: inout ByteWriter, _ pairs: inout FixedList<EncodedPair>
  ) throws(OAuthError) {
    let raw = try key.appendRawSignature(of: baseString, to: &bytes)
    let start = bytes.count
    bytes.append(ProtocolParameterName.signature.staticText)
    let nameEnd = bytes.count
    key.appendValue(raw: raw, encoded: true, to: &bytes)
    // Never part of a base string, so its `%` need no count.
    pairs[signatureSlot] = EncodedPair(name: start..<nameEnd, valueEnd: bytes.count, percents: 0)
  }

  /// Appends the decimal digits of a timestamp (at most 20 bytes, sign included): the digits
  /// are counted, then written two at a time from the last.
  private static func appendDecimal(_ value: Int64, to out: inout ByteWriter) {
    if value < 0 { out.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    var digits = 1
    var power: UInt64 = 10
    while digits < 20 && magnitude >= power {
      digits += 1
      power = power &* 10
    }
    let start = out.count
    out.append(repeating: UInt8(ascii: "0"), count: digits)
    var index = start + digits
    while magnitude >= 10 {
      let pair = Int(magnitude % 100)
      magnitude /= 100
      out[index - 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair % 10)
      out[index - 2] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair / 10)
      index -= 2
    }
    if magnitude > 0 { out[index - 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude) }
  }
}
