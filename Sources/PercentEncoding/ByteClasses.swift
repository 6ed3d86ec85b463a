extension PercentEncoding {
  /// How the encoders and form readers handle each byte, one class per byte value: the
  /// package's one percent table. ``PercentEncoding/isUnreserved(_:)`` reads it, and so does the
  /// signer's engine, which classifies eight bytes per step by OR-ing their classes (the classes
  /// are the digits `0` to `5`, so eight together are `0` only when all eight are unreserved).
  ///
  /// A constant string rather than an array: no lazy global to check on each read, and a read is
  /// one load from memory.
  ///
  /// ```swift
  /// PercentEncoding.byteClasses.utf8Start[Int(UInt8(ascii: "&"))] == PercentEncoding.ByteClass.ampersand  // true
  /// ```
  @inlinable
  package static var byteClasses: StaticString {
    "1111111111111111111111111111111111111341111210010000000000111511100000000000000000000000000111101000000000000000000000000001110111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111"
  }

  /// The classes of ``byteClasses``.
  @usableFromInline
  package enum ByteClass {
    /// RFC 3986's unreserved set (`A-Z a-z 0-9 - . _ ~`): copied as it is.
    @inlinable package static var unreserved: UInt8 { UInt8(ascii: "0") }
    /// Any other byte that is not one of the delimiters below: written as `%XX`.
    @inlinable package static var escaped: UInt8 { UInt8(ascii: "1") }
    /// `+`: a space in a form.
    @inlinable package static var plus: UInt8 { UInt8(ascii: "2") }
    /// `%`: starts an escape.
    @inlinable package static var percent: UInt8 { UInt8(ascii: "3") }
    /// `&`: ends a form's pair.
    @inlinable package static var ampersand: UInt8 { UInt8(ascii: "4") }
    /// `=`: ends a form's name.
    @inlinable package static var equals: UInt8 { UInt8(ascii: "5") }
  }
}
