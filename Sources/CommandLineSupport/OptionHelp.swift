/// An option's help, written as a string literal that may say `\(.default)` where the option's
/// default goes and `\(.environment)` where its environment variable goes: both come from the
/// declaration (``Option/value(_:short:placeholder:default:environment:help:recorded:_:)``), so
/// the help cannot state a default the option does not have.
///
/// ```swift
/// let help: OptionHelp = "At most N tweets (default \(.default))."  // "At most N tweets (default 20)."
/// ```
package struct OptionHelp: ExpressibleByStringInterpolation, Sendable {
  /// What an interpolation stands for.
  package enum Placeholder: Sendable {
    /// The default, as the option's conversion shows it.
    case `default`
    /// The first environment variable the option is read from.
    case environment
  }

  fileprivate enum Part: Sendable {
    case text(String)
    case placeholder(Placeholder)
  }

  private let parts: [Part]

  /// Help without a placeholder.
  package init(stringLiteral value: String) { parts = [.text(value)] }

  /// Help with placeholders (and other text interpolated as usual).
  package init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }

  /// The pieces of an interpolated help literal.
  package struct StringInterpolation: StringInterpolationProtocol {
    fileprivate var parts: [Part] = []

    /// Room for the literal's pieces.
    package init(literalCapacity: Int, interpolationCount: Int) {}

    /// Text as written.
    package mutating func appendLiteral(_ literal: String) { parts.append(.text(literal)) }

    /// Where the default or the environment variable goes.
    package mutating func appendInterpolation(_ placeholder: Placeholder) { parts.append(.placeholder(placeholder)) }

    /// Text computed at the declaration (a list of names, say).
    package mutating func appendInterpolation(_ text: String) { parts.append(.text(text)) }
  }

  /// The help with its placeholders filled in.
  func rendered(default shown: String?, environment: String?) -> String {
    parts.map { part in
      switch part {
      case .text(let text): text
      case .placeholder(.default): shown ?? ""
      case .placeholder(.environment): environment ?? ""
      }
    }.joined()
  }
}
