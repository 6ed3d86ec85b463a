import CCurl

/// libcurl as this process finds it at run time: loaded once, on first use, from
/// `libcurl.so.4` (or the path in `NETWORKCLIENT_LIBCURL`), with its global state set up.
///
/// The package declares the part of libcurl's API it uses itself (the `CCurl` module), so that
/// building needs no libcurl development package; a machine without the library (or with one
/// older than 7.85.0) gets ``DefaultTransport`` on `URLSession` instead, which says why.
enum CurlLibrary {
  /// `nil` when libcurl is usable; otherwise why not, in a sentence.
  static let unavailableReason: String? = {
    if let problem = ccurl_load() { return String(cString: problem) }
    // Thread-safe since 7.84, and called once here before any handle exists.
    let code = ccurl_global_init(Int(CURL_GLOBAL_DEFAULT))
    return code == CURLE_OK ? nil : "curl_global_init failed: \(String(cString: ccurl_easy_strerror(code)))"
  }()

  /// The loaded library's version ("7.88.1"), or `nil` when it is not usable.
  static var version: String? {
    unavailableReason == nil ? String(cString: ccurl_version()) : nil
  }
}
