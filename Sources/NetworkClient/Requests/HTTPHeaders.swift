/// HTTP header fields: ordered, repeatable, looked up without regard to case.
///
/// ```swift
/// var headers: HTTPHeaders = ["Accept": "application/json"]
/// headers["content-type"] = "text/plain"
/// headers["Content-Type"]  // "text/plain"
/// ```
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
  /// One header field: its name, with the case it was given, and its value.
  public struct Field: Sendable, Hashable {
    /// The field name, with the case it was set or received with; lookups in ``HTTPHeaders`` ignore case.
    public var name: String
    /// The field value as one string, unparsed (a comma-separated list stays as it is).
    public var value: String
  }

  /// Every field in order, repeated names included; change them through the subscript and ``add(name:value:)``.
  public private(set) var fields: [Field] = []

  /// Creates headers without any field.
  public init() {}

  /// Creates headers from name–value pairs, keeping their order and any repeated names.
  public init(_ fields: [(String, String)]) {
    self.fields = fields.map { Field(name: $0.0, value: $0.1) }
  }

  public init(dictionaryLiteral elements: (String, String)...) {
    self.init(elements)
  }

  /// The first value of `name`; setting replaces every field of that name (`nil` removes them).
  public subscript(name: String) -> String? {
    get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
    set {
      let first = fields.firstIndex { $0.name.caseInsensitiveEquals(name) }
      fields.removeAll { $0.name.caseInsensitiveEquals(name) }
      guard let newValue else { return }
      // Fields before the first match are kept, so it keeps its place.
      fields.insert(Field(name: name, value: newValue), at: first ?? fields.count)
    }
  }

  /// Every value of `name`, in order.
  public func values(for name: String) -> [String] {
    fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
  }

  /// Adds a field, keeping any existing one of the same name.
  public mutating func add(name: String, value: String) {
    fields.append(Field(name: name, value: value))
  }

  /// Whether a field named `name` is present, ignoring case.
  public func contains(_ name: String) -> Bool { self[name] != nil }

  /// Whether there is no field at all.
  public var isEmpty: Bool { fields.isEmpty }

  public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

  public var description: String {
    fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
  }
}

extension String {
  func caseInsensitiveEquals(_ other: String) -> Bool {
    utf8.count == other.utf8.count && lowercased() == other.lowercased()
  }
}
