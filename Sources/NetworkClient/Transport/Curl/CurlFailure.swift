import CCurl
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// libcurl's result codes as the `URLError` codes ``TransportFailure`` sorts into kinds
/// (refused, timed out, interrupted, host not found, TLS), with curl's own message as the
/// error's description, so that a failure reads the same whichever transport made it.
enum CurlFailure {
  /// The `URLError` for a transfer that ended with `code`; `message` is curl's error buffer.
  static func error(_ code: CURLcode, message: String) -> URLError {
    let text = message.isEmpty ? String(cString: ccurl_easy_strerror(code)) : message
    return URLError(urlCode(code), userInfo: [NSLocalizedDescriptionKey: text])
  }

  static func urlCode(_ code: CURLcode) -> URLError.Code {
    switch code {
    case CURLE_COULDNT_CONNECT: return .cannotConnectToHost
    case CURLE_OPERATION_TIMEDOUT: return .timedOut
    case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .cannotFindHost
    case CURLE_PEER_FAILED_VERIFICATION: return .serverCertificateUntrusted
    case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND,
      CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE, CURLE_USE_SSL_FAILED:
      return .secureConnectionFailed
    case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
      return .networkConnectionLost
    case CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING: return .badServerResponse
    case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL: return .unsupportedURL
    case CURLE_ABORTED_BY_CALLBACK: return .cancelled
    case CURLE_READ_ERROR: return .cannotOpenFile
    default: return .unknown
    }
  }
}
