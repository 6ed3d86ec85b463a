import CommandLineSupport

/// The options that describe the request `oauth1 sign` signs and `oauth1 verify` checks, beside
/// its URL and body: declared once, so that both take them under the same names and defaults.
enum RequestOptions {
  static let method = Option<String>.value(
    "method", short: "X", placeholder: "METHOD", default: .value("GET"), help: "HTTP method (default \(.default)).", .string)
  static let host = Option.value("host", placeholder: "HOST", help: "The Host header, if it differs from the URL's host.")
}
