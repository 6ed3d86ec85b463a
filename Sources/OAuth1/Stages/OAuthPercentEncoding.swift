import PercentEncoding

/// Stage 1 of signing: percent-encoding as OAuth 1.0a defines it (RFC 5849, section 3.6).
///
/// Every byte of the UTF-8 form outside `A-Z a-z 0-9 - . _ ~` becomes `%XX` with uppercase
/// hex. It is the package's `PercentEncoding` itself, under the stage's name: the network
/// client encodes queries with the same code, so what is signed is what is sent.
///
/// ```swift
/// OAuthPercentEncoding.encode("Ladies + Gentlemen")  // "Ladies%20%2B%20Gentlemen"
/// OAuthPercentEncoding.decode("a+b%21", plusAsSpace: true)  // "a b!"
/// ```
public typealias OAuthPercentEncoding = PercentEncoding
