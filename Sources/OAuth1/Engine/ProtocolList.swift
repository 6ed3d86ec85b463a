/// The protocol parameters of one signature, encoded, in name order (their order in the base
/// string and in the header): the signer's constants, this request's nonce, timestamp and body
/// hash, and, once computed, `oauth_signature` in its place.
///
/// Invariants: the pairs and this request's values live in one scratch allocation made by
/// ``with(_:nonce:timestamp:bodyHash:signatureRoom:_:)`` and valid only inside its closure;
/// the room is counted there from the same inputs that are then written (at most
/// ``capacity`` pairs; the values through a ``ByteWriter``, which checks its capacity).
struct ProtocolList {
  /// Ten parameters at most: every name of ``ProtocolParameterName``.
  static let capacity = 10

  private let slots: UnsafeMutablePointer<EncodedPair>
  private var count = 0
  private var signatureIndex = 0
  private var values: ByteWriter

  /// The listed pairs.
  var pairs: UnsafeBufferPointer<EncodedPair> { UnsafeBufferPointer(start: slots, count: count) }

  /// Lists the protocol parameters of one request and lends them to `body`. `nonce` is the
  /// chosen one, decoded, or `nil` for a fresh random one; `bodyHash` is already encoded;
  /// `signatureRoom` is what the signature will need.
  static func with<R>(
    _ constants: ProtocolConstants, nonce: String?, timestamp: Int64, bodyHash: String?, signatureRoom: Int,
    _ body: (inout ProtocolList) throws(OAuthError) -> R
  ) throws(OAuthError) -> R {
    let pairBytes = capacity * MemoryLayout<EncodedPair>.stride
    let valueRoom = (nonce.map { 3 * $0.utf8.count } ?? OAuthNonce.length) + 20 + (bodyHash?.utf8.count ?? 0) + signatureRoom
    return try withUnsafeTemporaryAllocation(byteCount: pairBytes + valueRoom, alignment: MemoryLayout<EncodedPair>.alignment) {
      raw throws(OAuthError) in
      let base = raw.baseAddress!
      var list = ProtocolList(
        slots: base.bindMemory(to: EncodedPair.self, capacity: capacity),
        values: ByteWriter((base + pairBytes).bindMemory(to: UInt8.self, capacity: valueRoom), capacity: valueRoom))
      if var bodyHash { try list.appendValue(.bodyHash) { out in bodyHash.withUTF8 { out.append($0) } } }
      list.append(constants.callback)
      list.append(constants.consumerKey)
      try list.appendValue(.nonce, percents: nonce == nil ? 0 : nil) { out throws(OAuthError) in
        if var nonce {
          nonce.withUTF8 { out.appendEncoded($0) }
        } else {
          // URL-safe base64: nothing to encode.
          try out.appendInPlace(room: OAuthNonce.length) { place throws(OAuthError) in try OAuthNonce.write(into: place) }
        }
      }
      list.signatureIndex = list.count
      list.append(constants.signatureMethod)
      try list.appendValue(.timestamp, percents: 0) { out throws(OAuthError) in try Self.appendDigits(timestamp, to: &out) }
      list.append(constants.token)
      list.append(constants.verifier)
      list.append(constants.version)
      return try body(&list)
    }
  }

  private init(slots: UnsafeMutablePointer<EncodedPair>, values: ByteWriter) {
    self.slots = slots
    self.values = values
  }

  private mutating func append(_ pair: EncodedPair?) {
    guard let pair else { return }
    precondition(count < Self.capacity, "ProtocolList: more than ten parameters")
    slots[count] = pair
    count += 1
  }

  /// Lists `name` with the value `write` appends to this request's scratch; its `%` are
  /// counted unless `percents` says how many there are.
  private mutating func appendValue(
    _ name: ProtocolParameterName, percents: Int32? = nil, _ write: (inout ByteWriter) throws(OAuthError) -> Void
  ) throws(OAuthError) {
    let start = values.count
    try write(&values)
    let value = UnsafeBufferPointer(rebasing: values.written[start...])
    append(percents.map { EncodedPair(name: name.utf8, value: value, percents: $0) } ?? EncodedPair(name: name.utf8, value: value))
  }

  /// Lists `oauth_signature`, which `write` appends encoded, in its place in name order.
  mutating func appendSignature(_ write: (inout ByteWriter) throws(OAuthError) -> Void) throws(OAuthError) {
    let start = values.count
    try write(&values)
    precondition(count < Self.capacity, "ProtocolList: more than ten parameters")
    var index = count
    while index > signatureIndex {
      slots[index] = slots[index - 1]
      index -= 1
    }
    // Never part of a base string, so its `%` need no count.
    slots[signatureIndex] = EncodedPair(
      name: ProtocolParameterName.signature.utf8, value: UnsafeBufferPointer(rebasing: values.written[start...]), percents: 0)
    count += 1
  }

  /// Appends the decimal digits of a timestamp (at most 20 bytes, sign included), written
  /// backwards into a small buffer and copied once.
  private static func appendDigits(_ value: Int64, to out: inout ByteWriter) throws(OAuthError) {
    try out.appendInPlace(room: 20) { place in
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
        var index = 20
        var magnitude = value.magnitude
        repeat {
          index -= 1
          digits[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
          magnitude /= 10
        } while magnitude > 0
        if value < 0 {
          index -= 1
          digits[index] = UInt8(ascii: "-")
        }
        place.update(from: digits.baseAddress! + index, count: 20 - index)
        return 20 - index
      }
    }
  }
}
