import Foundation

/// Removes secrets from anything that may be logged or shown: header values that carry
/// credentials, the values of secret parameters (`oauth_*` but the harmless ones, tokens,
/// secrets, codes and their verifiers) in URLs, forms, JSON and free text, and the password of
/// a URL's user info. Ordinary words stay: "Bearer token required" and "the token: expired"
/// are prose, not credentials.
///
/// ```swift
/// Redaction.url("https://a.example/cb?oauth_token=abc&x=1")  // "https://a.example/cb?oauth_token=<redacted>&x=1"
/// Redaction.text(#"{"refresh_token": "r-1", "expires_in": 7200}"#)  // {"refresh_token": "<redacted>", "expires_in": 7200}
/// ```
///
/// Every function reads its input once, left to right, looking at each character a bounded
/// number of times: its time is linear in the input's size, whatever the input (a server's
/// body in an error message is untrusted).
public enum Redaction {
  /// What replaces a secret value in logs and messages: `<redacted>`.
  public static let placeholder = "<redacted>"

  /// Headers whose whole value is a credential.
  public static let sensitiveHeaders: Set<String> = [
    "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-auth-token",
  ]

  /// Parameters whose value is never shown. Every `oauth_*` parameter is redacted except these
  /// harmless ones, which are what a person debugging a signature needs to see.
  public static let harmlessOAuthParameters: Set<String> = [
    "oauth_signature_method", "oauth_version", "oauth_timestamp", "oauth_nonce", "oauth_consumer_key",
    "oauth_callback_confirmed",
    // A provider's problem report (the OAuth Problem Reporting extension): it names what
    // went wrong and holds no secret, and a base string is what a person compares.
    "oauth_problem", "oauth_problem_advice", "oauth_signature_base_string", "oauth_parameters_absent",
    "oauth_parameters_rejected", "oauth_acceptable_timestamps", "oauth_acceptable_versions",
  ]

  /// Other parameter names whose values are secrets: passwords and API keys, OAuth 2.0's
  /// tokens and client secret, the authorization code and its PKCE verifier (RFC 6749, RFC
  /// 7636), the token exchange's tokens (RFC 8693), assertions (RFC 7521) and ID tokens
  /// (OpenID Connect), and the signatures of presigned storage URLs (Google Cloud Storage's,
  /// S3's, Azure's shared access `sig`), which grant access to whoever holds the URL.
  public static let sensitiveParameters: Set<String> = [
    "access_token", "refresh_token", "client_secret", "password", "token", "secret", "api_key", "x_auth_password",
    "code", "code_verifier", "subject_token", "actor_token", "id_token", "assertion", "client_assertion",
    "x-goog-signature", "x-amz-signature", "signature", "sig",
  ]

  /// Whether the whole value of the header `name` is a credential: one of ``sensitiveHeaders``, ignoring case.
  public static func isSensitive(header name: String) -> Bool {
    sensitiveHeaders.contains(name.lowercased())
  }

  /// Whether the value of the parameter `name` is a secret: any `oauth_*` parameter except ``harmlessOAuthParameters``,
  /// or one of ``sensitiveParameters``. Case, `_` and `-` are ignored, so the names as Codable writes them
  /// (`accessToken`, `oauthToken`) count too.
  public static func isSensitive(parameter name: String) -> Bool {
    let folded = fold(name)
    if folded.hasPrefix("oauth") && folded.count > 5 && isOAuthName(name) { return !harmlessFolded.contains(folded) }
    return sensitiveFolded.contains(folded)
  }

  /// The headers with sensitive values replaced.
  public static func headers(_ headers: HTTPHeaders) -> HTTPHeaders {
    HTTPHeaders(headers.map { ($0.name, isSensitive(header: $0.name) ? placeholder : $0.value) })
  }

  /// A URL (as text) with sensitive query values and the password of its user info replaced
  /// (`http://me:<redacted>@host/`; user info without a password is replaced whole, since a
  /// token often stands there alone).
  public static func url(_ url: String) -> String {
    let url = userInfoRedacted(url)
    guard let questionMark = url.firstIndex(of: "?") else { return url }
    var query = url[url.index(after: questionMark)...]
    var fragment: Substring = ""
    if let hash = query.firstIndex(of: "#") {
      fragment = query[hash...]
      query = query[..<hash]
    }
    return url[...questionMark] + form(String(query)) + fragment
  }

  /// The URL without its user info: `http://user:password@host/x` is `http://host/x`. For a URL
  /// that is stored or shown as part of a command to run again (a checkpoint, an archive's
  /// record of a fetch), where a placeholder would leave a URL that works for nobody.
  ///
  /// ```swift
  /// Redaction.removingUserInfo("http://me:pw@127.0.0.1:8080/2")  // "http://127.0.0.1:8080/2"
  /// ```
  public static func removingUserInfo(_ url: String) -> String {
    guard let scheme = url.range(of: "://") else { return url }
    let authority = url[scheme.upperBound...].prefix { !"/?#".contains($0) }
    guard let at = authority.lastIndex(of: "@") else { return url }
    return String(url[..<scheme.upperBound] + url[url.index(after: at)...])
  }

  /// Form-encoded text (`a=1&oauth_token_secret=x`) with sensitive values replaced.
  public static func form(_ text: String) -> String {
    text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
      guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
      let name = pair[..<equals].removingPercentEncoding ?? String(pair[..<equals])
      return isSensitive(parameter: name) ? pair[...equals] + placeholder : String(pair)
    }.joined(separator: "&")
  }

  /// Free text (an error message, a body, a log line) with secrets replaced, wherever they
  /// stand:
  ///
  /// - `name=value` and `name="value"` (a query, a form, an `OAuth` header's parameters, a base
  ///   string's `name%3Dvalue`), for a sensitive name;
  /// - `"name": "value"` or `"name": 123456` (JSON, a Swift description), `name: "value"`;
  /// - a header line `Authorization: OAuth …` (the scheme stays), `Cookie: …`, and the other
  ///   ``sensitiveHeaders``, to the end of the line;
  /// - `Bearer X` and `Basic X` credentials, and the password in `scheme://user:password@host`.
  ///
  /// A value that stands loose, after `name: ` or `name = ` or `Bearer `, is replaced only when
  /// it is no ordinary word: letters in one case (or capitalized), `true`, or a number of up to
  /// four digits (X's error `code: 89`) are prose.
  public static func text(_ text: String) -> String {
    var redactor = TextRedactor(Array(text.utf8))
    return redactor.run()
  }

  /// ``text(_:)`` with the count of bytes it looked at, for the cost tests: at most a few per
  /// byte of input.
  static func text(_ text: String, examined: inout Int) -> String {
    var redactor = TextRedactor(Array(text.utf8))
    let result = redactor.run()
    examined = redactor.examined
    return result
  }

  /// The first 300 characters of a body, redacted; `nil` for an empty body.
  public static func excerpt(of body: Data, limit: Int = 300) -> String? {
    guard !body.isEmpty else { return nil }
    let text = String(decoding: body.prefix(limit * 4), as: UTF8.self)
    let short = text.count > limit ? String(text.prefix(limit)) + "…" : text
    return Self.text(short.replacingOccurrences(of: "\n", with: " "))
  }

  // MARK: - Names

  /// A name lowercased, without `_` and `-`: how names are compared.
  static func fold(_ name: some StringProtocol) -> String {
    String(String.UnicodeScalarView(name.unicodeScalars.lazy.filter { $0 != "_" && $0 != "-" })).lowercased()
  }

  /// `oauth_x` or `oauthX` (camel case), not a word that starts with "oauth" (`OAuth2`).
  private static func isOAuthName(_ name: String) -> Bool {
    let scalars = Array(name.unicodeScalars.prefix(6))
    guard scalars.count == 6 else { return false }
    return scalars[5] == "_" || scalars[5] == "-" || (scalars[5].properties.isUppercase && !scalars[4].properties.isUppercase)
  }

  static let sensitiveFolded = Set(sensitiveParameters.map { fold($0) })
  static let harmlessFolded = Set(harmlessOAuthParameters.map { fold($0) })
  static let headersFolded = Set(sensitiveHeaders.map { fold($0) })

  /// The URL with the password of its user info (or the whole user info, when there is no
  /// password) replaced.
  static func userInfoRedacted(_ url: String) -> String {
    guard let scheme = url.range(of: "://") else { return url }
    let rest = url[scheme.upperBound...]
    let authority = rest.prefix { !"/?#".contains($0) }
    guard let at = authority.lastIndex(of: "@") else { return url }
    let userInfo = authority[..<at]
    var kept: Substring = ""
    if let colon = userInfo.firstIndex(of: ":"), !userInfo[..<colon].contains("@") {
      guard userInfo.index(after: colon) < at else { return url }  // no password to hide
      kept = userInfo[...colon]
    }
    return url[..<scheme.upperBound] + kept + placeholder + url[at...]
  }
}

/// The one pass of ``Redaction/text(_:)`` over the bytes of its input (UTF-8): each position is
/// examined a bounded number of times (a name, then whatever follows it, is read once; a failed
/// lookahead is at most re-read once as plain text), so the time is linear in the input.
struct TextRedactor {
  let bytes: [UInt8]
  var output: [UInt8] = []
  var position = 0
  /// Bytes looked at, lookaheads included: the cost tests check it stays within a few per byte.
  var examined = 0

  static let placeholder = Array(Redaction.placeholder.utf8)

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
    output.reserveCapacity(bytes.count)
  }

  /// The byte at `index`, or `nil` past the end; counted.
  mutating func byte(_ index: Int) -> UInt8? {
    examined += 1
    return index < bytes.count ? bytes[index] : nil
  }

  mutating func run() -> String {
    while position < bytes.count {
      let current = bytes[position]
      examined += 1
      if current == UInt8(ascii: ":"), byte(position + 1) == UInt8(ascii: "/"), byte(position + 2) == UInt8(ascii: "/") {
        userInfo()
      } else if current == UInt8(ascii: "\"") || current == UInt8(ascii: "'") {
        quotedName(quote: current)
      } else if Self.isNameByte(current) && (position == 0 || !Self.isNameByte(bytes[position - 1])) {
        name()
      } else {
        output.append(current)
        position += 1
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  // MARK: Patterns

  /// At `://`: the authority up to its end; its user info's password (or the whole user info,
  /// without a password) replaced.
  mutating func userInfo() {
    output.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "/")])
    position += 3
    let start = position
    var end = start
    var at: Int?
    while let next = byte(end), !Self.endsAuthority(next) {
      if next == UInt8(ascii: "@") { at = end }
      end += 1
    }
    guard let at, at > start else { return }  // the host is read as text, from `start`
    // The user stays when it is plain (no `@`: then the result, redacted again, is the same).
    if let colon = bytes[start..<at].firstIndex(of: UInt8(ascii: ":")), !bytes[start..<colon].contains(UInt8(ascii: "@")) {
      guard colon + 1 < at else { return }  // no password to hide
      output.append(contentsOf: bytes[start...colon])
    }
    output.append(contentsOf: Self.placeholder)
    position = at  // the `@` and the host are read as text
  }

  /// At a quote: `"name": value` (or `'name' = value`) for a sensitive name, else the quote
  /// alone (the name is then read on its own).
  mutating func quotedName(quote: UInt8) {
    let nameStart = position + 1
    var nameEnd = nameStart
    while let next = byte(nameEnd), Self.isNameByte(next) { nameEnd += 1 }
    guard nameEnd > nameStart, byte(nameEnd) == quote, isSensitiveName(nameStart..<nameEnd) else {
      output.append(quote)
      position += 1
      return
    }
    var cursor = nameEnd + 1
    while let next = byte(cursor), Self.isSpace(next) { cursor += 1 }
    guard let separator = byte(cursor), separator == UInt8(ascii: ":") || separator == UInt8(ascii: "=") else {
      output.append(quote)
      position += 1
      return
    }
    cursor += 1
    while let next = byte(cursor), Self.isSpace(next) { cursor += 1 }
    output.append(contentsOf: bytes[position..<cursor])
    position = cursor
    value(loose: true)
  }

  /// At the start of a name: a credential scheme and its credential, a header line, or
  /// `name=value`, `name: value`, `name%3Dvalue` for a sensitive name; else the name as it is.
  mutating func name() {
    let start = position
    var end = start
    while let next = byte(end), Self.isNameByte(next) { end += 1 }
    let folded = Self.folded(bytes[start..<end])
    // `Bearer X`, `Basic X`.
    if folded == "bearer" || folded == "basic", byte(end) == UInt8(ascii: " ") {
      var cursor = end
      while byte(cursor) == UInt8(ascii: " ") { cursor += 1 }
      output.append(contentsOf: bytes[start..<cursor])
      position = cursor
      if let next = byte(cursor), Self.isToken68(next) { credential() }
      return
    }
    let sensitive = isSensitiveName(start..<end)
    let headerName = Redaction.headersFolded.contains(folded)
    guard sensitive || headerName else { return copy(upTo: end) }
    // `name=value`, tight: a form, a query, an OAuth header's parameter.
    if byte(end) == UInt8(ascii: "=") {
      output.append(contentsOf: bytes[start...end])
      position = end + 1
      return value(loose: false)
    }
    // `name%3Dvalue`: a parameter inside a signature base string.
    if byte(end) == UInt8(ascii: "%"), byte(end + 1) == UInt8(ascii: "3"), let d = byte(end + 2), d | 0x20 == UInt8(ascii: "d") {
      output.append(contentsOf: bytes[start..<(end + 3)])
      position = end + 3
      return encodedValue()
    }
    // `name: value`, `name = value`: loose.
    var cursor = end
    while let next = byte(cursor), Self.isSpace(next) { cursor += 1 }
    guard let separator = byte(cursor), separator == UInt8(ascii: ":") || separator == UInt8(ascii: "=") else { return copy(upTo: end) }
    if separator == UInt8(ascii: ":"), byte(cursor + 1) == UInt8(ascii: "/") { return copy(upTo: end) }  // a URL's scheme
    cursor += 1
    while let next = byte(cursor), Self.isSpace(next) { cursor += 1 }
    output.append(contentsOf: bytes[start..<cursor])
    position = cursor
    if headerName && separator == UInt8(ascii: ":") && byte(cursor) != UInt8(ascii: "\"") {
      headerValue(keepsScheme: folded == "authorization" || folded == "proxyauthorization")
    } else {
      value(loose: true)
    }
  }

  /// A header's value, to the end of the line; an authorization's scheme stays.
  mutating func headerValue(keepsScheme: Bool) {
    var cursor = position
    if keepsScheme {
      while let next = byte(cursor), Self.isLetter(next) { cursor += 1 }
      if cursor > position, byte(cursor) == UInt8(ascii: " ") {
        output.append(contentsOf: bytes[position...cursor])
        position = cursor + 1
        cursor = position
      } else {
        cursor = position
      }
    }
    while let next = byte(cursor), next != UInt8(ascii: "\r") && next != UInt8(ascii: "\n") { cursor += 1 }
    replace(position..<cursor)
  }

  /// A value after its separator: quoted (replaced to its closing quote, or the end of the
  /// line), or bare (to a delimiter). A loose bare value that is an ordinary word stays.
  mutating func value(loose: Bool) {
    guard let first = byte(position) else { return }
    if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
      var cursor = position + 1
      while let next = byte(cursor), next != first, next != UInt8(ascii: "\n"), next != UInt8(ascii: "\r") {
        cursor += next == UInt8(ascii: "\\") && byte(cursor + 1).map({ $0 != UInt8(ascii: "\n") }) == true ? 2 : 1
      }
      cursor = min(cursor, bytes.count)
      output.append(first)
      replace((position + 1)..<cursor)
      return
    }
    var cursor = position
    while let next = byte(cursor), !Self.endsValue(next) { cursor += 1 }
    if loose && Self.isOrdinary(bytes[position..<cursor]) { return copy(upTo: cursor) }
    replace(position..<cursor)
  }

  /// A value inside a base string, to its `%26` (or a delimiter).
  mutating func encodedValue() {
    var cursor = position
    while let next = byte(cursor), !Self.endsValue(next) {
      if next == UInt8(ascii: "%"), byte(cursor + 1) == UInt8(ascii: "2"), byte(cursor + 2) == UInt8(ascii: "6") { break }
      cursor += 1
    }
    replace(position..<cursor)
  }

  /// The token68 after `Bearer ` or `Basic `: replaced unless it is an ordinary word.
  mutating func credential() {
    var cursor = position
    while let next = byte(cursor), Self.isToken68(next) { cursor += 1 }
    while byte(cursor) == UInt8(ascii: "=") { cursor += 1 }
    if Self.isOrdinary(bytes[position..<cursor]) { return copy(upTo: cursor) }
    replace(position..<cursor)
  }

  // MARK: Output

  mutating func copy(upTo end: Int) {
    output.append(contentsOf: bytes[position..<end])
    position = end
  }

  /// Writes the placeholder for a non-empty `range` (which is skipped); an empty one stays empty.
  mutating func replace(_ range: Range<Int>) {
    if !range.isEmpty { output.append(contentsOf: Self.placeholder) }
    position = range.upperBound
  }

  // MARK: Classes of bytes

  func isSensitiveName(_ range: Range<Int>) -> Bool {
    guard range.count <= 64 else { return false }  // no secret's name is longer; bounds the work
    let name = String(decoding: bytes[range], as: UTF8.self)
    return Redaction.isSensitive(parameter: name) || Redaction.headersFolded.contains(Redaction.fold(name))
  }

  static func folded(_ name: ArraySlice<UInt8>) -> String {
    name.count > 64 ? "" : Redaction.fold(String(decoding: name, as: UTF8.self))
  }

  /// Letters, digits, `_` and `-`: what names are made of.
  static func isNameByte(_ byte: UInt8) -> Bool {
    isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
  }

  static func isLetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
  }

  static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

  /// RFC 9110's token68 characters, but the `=` padding.
  static func isToken68(_ byte: UInt8) -> Bool {
    isNameByte(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "~") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
  }

  /// What ends a bare value: white space, and the delimiters of forms, JSON, headers and prose.
  static func endsValue(_ byte: UInt8) -> Bool {
    byte <= 0x20 || Array("&\"',;})]<>#".utf8).contains(byte)
  }

  /// What ends a URL's authority.
  static func endsAuthority(_ byte: UInt8) -> Bool {
    byte <= 0x20 || Array("/?#\"'<>\\()[]{}".utf8).contains(byte)
  }

  /// A word of prose, not a credential: letters only, in one case or capitalized, at most 24;
  /// or a number of at most four digits.
  static func isOrdinary(_ value: ArraySlice<UInt8>) -> Bool {
    guard !value.isEmpty, value.count <= 24 else { return value.isEmpty }
    if value.count <= 4 && value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) { return true }
    guard value.allSatisfy(isLetter) else { return false }
    let upper = value.dropFirst().filter { $0 & 0x20 == 0 }.count
    return upper == 0 || upper == value.count - 1
  }
}
