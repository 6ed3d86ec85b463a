import Foundation

/// One XML element as ``BoundedXML`` reads it: its local name (any namespace prefix dropped),
/// its text (the concatenated character data directly inside it), and its child elements.
/// Attributes are not kept: POX messages carry none that matter.
struct XMLNode: Sendable, Hashable {
  var name: String
  var text = ""
  var children: [XMLNode] = []

  /// The first child called `name`.
  func child(_ name: String) -> XMLNode? { children.first { $0.name == name } }

  /// The descendant at the end of `path`, one child name per step.
  func at(_ path: String...) -> XMLNode? {
    var node: XMLNode? = self
    for name in path { node = node?.child(name) }
    return node
  }

  /// The trimmed text of the descendant at `path`, `nil` when absent.
  func text(_ path: String...) -> String? {
    var node: XMLNode? = self
    for name in path { node = node?.child(name) }
    return node?.text.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

/// A small, bounded XML reader for POX messages, written here so that nothing resolves
/// entities: a DOCTYPE (and with it every entity declaration, external or not) is refused, only
/// the five predefined entities and character references are decoded, and the size, depth and
/// element count are capped before they can cost anything. Comments, processing instructions
/// and CDATA sections are read; attributes are skipped.
enum BoundedXML {
  /// What a message may cost.
  struct Limits: Sendable, Hashable {
    /// Bytes of XML at most (64 KiB by default: a POX message is well under 2 KiB).
    var maximumBytes = 64 * 1024
    /// Elements nested at most.
    var maximumDepth = 32
    /// Elements in all at most.
    var maximumElements = 2000
  }

  /// The root element of `data`, or ``LTIError/malformedXML(_:)`` saying why not.
  static func parse(_ data: Data, limits: Limits = Limits()) throws(LTIError) -> XMLNode {
    guard data.count <= limits.maximumBytes else {
      throw .malformedXML("the XML is \(data.count) bytes, over the limit of \(limits.maximumBytes)")
    }
    var reader = Reader(bytes: [UInt8](data), limits: limits)
    return try reader.document()
  }

  private struct Reader {
    let bytes: [UInt8]
    let limits: Limits
    var index = 0
    var elements = 0

    init(bytes: [UInt8], limits: Limits) {
      self.bytes = bytes
      self.limits = limits
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    mutating func document() throws(LTIError) -> XMLNode {
      var stack: [XMLNode] = []
      var root: XMLNode?
      while index < bytes.count {
        if bytes[index] != UInt8(ascii: "<") {
          let text = try characterData()
          if stack.isEmpty {
            guard text.allSatisfy(\.isWhitespace) else { throw .malformedXML("text outside the root element") }
          } else {
            stack[stack.count - 1].text += text
          }
          continue
        }
        if starts("<?") {
          try skip(past: "?>")
        } else if starts("<!--") {
          try skip(past: "-->")
        } else if starts("<![CDATA[") {
          guard !stack.isEmpty else { throw .malformedXML("CDATA outside the root element") }
          index += 9
          let start = index
          try skip(past: "]]>")
          stack[stack.count - 1].text += String(decoding: bytes[start..<(index - 3)], as: UTF8.self)
        } else if starts("<!") {
          throw .malformedXML("a DOCTYPE or entity declaration is refused")
        } else if starts("</") {
          index += 2
          let name = self.name()
          try skip(past: ">")
          guard let open = stack.popLast(), Self.local(open.name) == Self.local(name) || open.name == name else {
            throw .malformedXML("the closing tag </\(LTIError.quoted(name))> does not match")
          }
          var closed = open
          closed.name = Self.local(open.name)
          if stack.isEmpty {
            guard root == nil else { throw .malformedXML("more than one root element") }
            root = closed
          } else {
            stack[stack.count - 1].children.append(closed)
          }
        } else {
          index += 1
          let name = self.name()
          guard !name.isEmpty else { throw .malformedXML("a tag without a name") }
          guard root == nil else { throw .malformedXML("more than one root element") }
          elements += 1
          guard elements <= limits.maximumElements else { throw .malformedXML("more than \(limits.maximumElements) elements") }
          guard stack.count < limits.maximumDepth else { throw .malformedXML("elements nested deeper than \(limits.maximumDepth)") }
          let selfClosing = try tagEnd()
          let node = XMLNode(name: name)
          if selfClosing {
            if stack.isEmpty {
              root = XMLNode(name: Self.local(name))
            } else {
              stack[stack.count - 1].children.append(XMLNode(name: Self.local(name)))
            }
          } else {
            stack.append(node)
          }
        }
      }
      guard stack.isEmpty else { throw .malformedXML("the document ends inside <\(LTIError.quoted(stack[stack.count - 1].name))>") }
      guard let root else { throw .malformedXML("no root element") }
      return root
    }

    func starts(_ prefix: String) -> Bool {
      bytes[index...].starts(with: prefix.utf8)
    }

    mutating func skip(past terminator: String) throws(LTIError) {
      let end = Array(terminator.utf8)
      while index < bytes.count {
        if bytes[index...].starts(with: end) {
          index += end.count
          return
        }
        index += 1
      }
      throw .malformedXML("the document ends before \(terminator)")
    }

    mutating func name() -> String {
      let start = index
      while index < bytes.count, !Self.isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">"), bytes[index] != UInt8(ascii: "/") {
        index += 1
      }
      return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Skips attributes (quoted values may hold `>`); `true` for `/>`.
    mutating func tagEnd() throws(LTIError) -> Bool {
      var quote: UInt8?
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        if let open = quote {
          if byte == open { quote = nil }
          if byte == UInt8(ascii: "<") { throw .malformedXML("< in an attribute value") }
        } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
          quote = byte
        } else if byte == UInt8(ascii: ">") {
          return index >= 2 && bytes[index - 2] == UInt8(ascii: "/")
        }
      }
      throw .malformedXML("the document ends inside a tag")
    }

    mutating func characterData() throws(LTIError) -> String {
      var out: [UInt8] = []
      while index < bytes.count, bytes[index] != UInt8(ascii: "<") {
        guard bytes[index] == UInt8(ascii: "&") else {
          out.append(bytes[index])
          index += 1
          continue
        }
        let start = index + 1
        guard let semicolon = bytes[start...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
          throw .malformedXML("an & that starts no entity")
        }
        let entity = String(decoding: bytes[start..<semicolon], as: UTF8.self)
        index = semicolon + 1
        switch entity {
        case "lt": out.append(UInt8(ascii: "<"))
        case "gt": out.append(UInt8(ascii: ">"))
        case "amp": out.append(UInt8(ascii: "&"))
        case "quot": out.append(UInt8(ascii: "\""))
        case "apos": out.append(UInt8(ascii: "'"))
        default:
          let scalar: UInt32? =
            if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
              UInt32(entity.dropFirst(2), radix: 16)
            } else if entity.hasPrefix("#") {
              UInt32(entity.dropFirst(), radix: 10)
            } else {
              nil
            }
          guard let scalar, let character = Unicode.Scalar(scalar) else {
            throw .malformedXML("the entity &\(LTIError.quoted(entity)); is not one of XML's own")
          }
          out.append(contentsOf: Array(String(Character(character)).utf8))
        }
      }
      return String(decoding: out, as: UTF8.self)
    }

    static func isSpace(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// `name` without its namespace prefix.
    static func local(_ name: String) -> String {
      name.split(separator: ":").last.map(String.init) ?? name
    }
  }
}
