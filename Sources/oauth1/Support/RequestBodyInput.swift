import CommandLineSupport
import Foundation
import OAuth1

/// The body options both commands share: `--body`, `--body-file`, `--form` and `--content-type`.
enum RequestBodyInput {
  static let body = Option.value("body", placeholder: "TEXT", help: "The raw request body.")
  static let bodyFile = Option.value("body-file", placeholder: "FILE", help: "Read the raw body from FILE (for large bodies).")
  static let contentType = Option.value("content-type", placeholder: "TYPE", help: "Content-Type of the body.")
  static let form = Option.repeatable("form", placeholder: "NAME=VALUE", help: "A form parameter (decoded); builds a form body.")
  static let options: [any OptionDeclaration] = [body, bodyFile, contentType, form]

  /// The body and its content type; `--form` sets `application/x-www-form-urlencoded` unless a
  /// content type is given.
  static func read(_ arguments: ParsedArguments) throws -> (body: Data?, contentType: String?) {
    let sources = [arguments.has(body) ? body.name : nil, arguments.has(bodyFile) ? bodyFile.name : nil, arguments.has(form) ? form.name : nil]
      .compactMap { $0 }
    if sources.count > 1 {
      throw UsageError("give only one of --body, --body-file and --form (got --\(sources.joined(separator: " and --")))")
    }
    let contentType = arguments[Self.contentType]
    if let text = arguments[body] {
      return (Data(text.utf8), contentType)
    }
    if let path = arguments[bodyFile] {
      return (try InputFiles.readData(path, what: "body"), contentType)
    }
    guard arguments.has(form) else { return (nil, contentType) }
    return (try formBody(arguments[form], option: "--form"), contentType ?? "application/x-www-form-urlencoded")
  }

  /// A form body from decoded `NAME=VALUE` arguments, encoded as the signer reads forms.
  static func formBody(_ pairs: [String], option: String) throws(UsageError) -> Data {
    let parameters = try pairs.map { pair throws(UsageError) -> OAuthParameter in
      let (name, value) = try NameValue.split(pair, option: option)
      return OAuthParameter(name, value)
    }
    return Data(OAuthFormEncoding.encode(parameters).utf8)
  }

  /// The bytes of `@FILE` (a file) or of the text itself.
  static func data(_ argument: String) throws -> Data {
    argument.hasPrefix("@") ? try InputFiles.readData(String(argument.dropFirst()), what: "body") : Data(argument.utf8)
  }
}

/// Reading the files options name, with errors that say which file and why.
enum InputFiles {
  /// A failure that is not wrong usage, such as an unreadable file.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  static func readData(_ path: String, what: String) throws -> Data {
    do {
      return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw Failure(description: "cannot read the \(what) file \(path): \((error as NSError).localizedDescription)")
    }
  }

  static func readText(_ path: String, what: String) throws -> String {
    let data = try readData(path, what: what)
    guard let text = String(data: data, encoding: .utf8) else {
      throw Failure(description: "the \(what) file \(path) is not text; give a PEM file")
    }
    return text
  }
}
