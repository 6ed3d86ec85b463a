import Foundation

/// Code a document shows (README.md, a DocC article), checked against the test that compiles
/// and runs it: the text of the test's source between two markers, compared with white space
/// squashed, so that a document cannot drift from code that works.
///
/// ```swift
/// let sample = try DocumentedSample(in: #filePath, from: "// README sample begins\n", to: "  // README sample ends")
/// #expect(try sample.documentsNotShowingIt(["README.md"]).isEmpty)
/// ```
public struct DocumentedSample: Sendable {
  /// The sample with every run of white space made one space.
  public let squashed: String

  /// The text of `file` from the end of `begin` (or from `begin` itself, with
  /// `includingBegin`) to the start of `end`, with each `replacing` pair applied (a test's
  /// loopback `baseURL:` that the document leaves out).
  public init(in file: String, from begin: String, to end: String, includingBegin: Bool = false, replacing: [(String, String)] = []) throws {
    let source = try String(contentsOf: URL(fileURLWithPath: file), encoding: .utf8)
    guard let start = source.range(of: begin), let stop = source.range(of: end, range: start.upperBound..<source.endIndex) else {
      throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "\(file) has no sample between \(begin) and \(end)"])
    }
    var text = String(source[(includingBegin ? start.lowerBound : start.upperBound)..<stop.lowerBound])
    for (old, new) in replacing { text = text.replacingOccurrences(of: old, with: new) }
    squashed = Self.squash(text)
  }

  /// The documents, paths from the package root, that do not show the sample.
  public func documentsNotShowingIt(_ paths: [String]) throws -> [String] {
    try paths.filter { path in
      !Self.squash(try String(contentsOf: PackagePaths.root.appendingPathComponent(path), encoding: .utf8)).contains(squashed)
    }
  }

  static func squash(_ text: String) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }
}
