#ifndef NETWORKCLIENT_CCURL_H
#define NETWORKCLIENT_CCURL_H

// The package's one view of libcurl, for NetworkClient's CurlTransport, without libcurl's
// development headers: this file declares the small part of libcurl's API the transport uses,
// and CCurl.c loads libcurl.so.4 (which FoundationNetworking links, so it is there wherever
// Swift's Foundation runs) with dlopen at run time.
//
// Why this is safe: libcurl's ABI has been stable since 7.16 (2006, soname libcurl.so.4), and
// its option numbers, result codes and the two structs below never change once published (curl's
// "API compatibility" promise). Each value here is the one curl.h 7.88.1 defines; `.ci/curl-abi`
// compiles a program against curl's own headers (downloaded, not installed) and against this one
// and fails when any name, value, offset or size differs.
//
// Every function below is a ccurl_ wrapper (never curl_'s own name, which would interpose on the
// libcurl that FoundationNetworking calls). Call ccurl_load() first: the others may be called only
// after it returned NULL.

#include <stddef.h>
#include <stdint.h>

typedef void CURL;
typedef void CURLM;
typedef int64_t curl_off_t;

typedef enum {
  CURLE_OK = 0,
  CURLE_UNSUPPORTED_PROTOCOL = 1,
  CURLE_URL_MALFORMAT = 3,
  CURLE_COULDNT_RESOLVE_PROXY = 5,
  CURLE_COULDNT_RESOLVE_HOST = 6,
  CURLE_COULDNT_CONNECT = 7,
  CURLE_WEIRD_SERVER_REPLY = 8,
  CURLE_HTTP2 = 16,
  CURLE_PARTIAL_FILE = 18,
  CURLE_WRITE_ERROR = 23,
  CURLE_READ_ERROR = 26,
  CURLE_OPERATION_TIMEDOUT = 28,
  CURLE_SSL_CONNECT_ERROR = 35,
  CURLE_ABORTED_BY_CALLBACK = 42,
  CURLE_GOT_NOTHING = 52,
  CURLE_SSL_ENGINE_NOTFOUND = 53,
  CURLE_SEND_ERROR = 55,
  CURLE_RECV_ERROR = 56,
  CURLE_SSL_CERTPROBLEM = 58,
  CURLE_SSL_CIPHER = 59,
  CURLE_PEER_FAILED_VERIFICATION = 60,
  CURLE_BAD_CONTENT_ENCODING = 61,
  CURLE_FILESIZE_EXCEEDED = 63,
  CURLE_USE_SSL_FAILED = 64,
  CURLE_SSL_CACERT_BADFILE = 77,
  CURLE_SSL_CRL_BADFILE = 82,
  CURLE_SSL_ISSUER_ERROR = 83,
  CURLE_SSL_PINNEDPUBKEYNOTMATCH = 90,
  CURLE_SSL_INVALIDCERTSTATUS = 91,
  CURLE_HTTP2_STREAM = 92,
} CURLcode;

// An option's number is its type's base (long 0, object 10000, function 20000, off_t 30000)
// plus its index, as curl.h's CURLOPT macro makes it.
typedef enum {
  CURLOPT_WRITEDATA = 10001,
  CURLOPT_URL = 10002,
  CURLOPT_PROXY = 10004,
  CURLOPT_READDATA = 10009,
  CURLOPT_ERRORBUFFER = 10010,
  CURLOPT_WRITEFUNCTION = 20011,
  CURLOPT_READFUNCTION = 20012,
  CURLOPT_HTTPHEADER = 10023,
  CURLOPT_HEADERDATA = 10029,
  CURLOPT_CUSTOMREQUEST = 10036,
  CURLOPT_NOBODY = 44,
  CURLOPT_POST = 47,
  CURLOPT_CAINFO = 10065,
  CURLOPT_HEADERFUNCTION = 20079,
  CURLOPT_HTTPGET = 80,
  CURLOPT_HTTP_VERSION = 84,
  CURLOPT_CAPATH = 10097,
  CURLOPT_NOSIGNAL = 99,
  CURLOPT_ACCEPT_ENCODING = 10102,
  CURLOPT_MAXFILESIZE_LARGE = 30117,
  CURLOPT_POSTFIELDSIZE_LARGE = 30120,
  CURLOPT_TIMEOUT_MS = 155,
  CURLOPT_CONNECTTIMEOUT_MS = 156,
  CURLOPT_SEEKFUNCTION = 20167,
  CURLOPT_SEEKDATA = 10168,
  CURLOPT_NOPROXY = 10177,
  CURLOPT_TCP_KEEPALIVE = 213,
  CURLOPT_PATH_AS_IS = 234,
  CURLOPT_SUPPRESS_CONNECT_HEADERS = 265,
  CURLOPT_PROTOCOLS_STR = 10318,
} CURLoption;

typedef enum {
  CURLM_OK = 0,
} CURLMcode;

typedef enum {
  CURLMOPT_PIPELINING = 3,
  CURLMOPT_MAXCONNECTS = 6,
  CURLMOPT_MAX_HOST_CONNECTIONS = 7,
} CURLMoption;

typedef enum {
  CURLMSG_NONE = 0,
  CURLMSG_DONE = 1,
} CURLMSG;

#define CURLPIPE_MULTIPLEX 2
#define CURL_HTTP_VERSION_2TLS 4
#define CURL_GLOBAL_DEFAULT 3
#define CURL_ERROR_SIZE 256
#define CURL_READFUNC_ABORT 0x10000000
#define CURL_WRITEFUNC_PAUSE 0x10000001
#define CURLPAUSE_CONT 0
#define CURL_SEEKFUNC_OK 0
#define CURL_SEEKFUNC_FAIL 1
#define CURL_SEEKFUNC_CANTSEEK 2

/// A list of strings (the request's header lines), as curl_slist_append builds it.
struct curl_slist {
  char *data;
  struct curl_slist *next;
};

/// What curl_multi_info_read returns about a transfer.
typedef struct CURLMsg {
  CURLMSG msg;
  CURL *easy_handle;
  union {
    void *whatever;
    CURLcode result;
  } data;
} CURLMsg;

typedef size_t (*curl_write_callback)(char *buffer, size_t size, size_t nitems, void *userdata);
typedef int (*curl_seek_callback)(void *userdata, curl_off_t offset, int origin);

/// Loads libcurl (once; later calls return the first answer): NULL when it is usable, else why
/// not (it could not be found, a function is missing, or it is older than 7.85.0, the first
/// with CURLOPT_PROTOCOLS_STR). The library's path is `NETWORKCLIENT_LIBCURL` when that is set,
/// else libcurl.so.4 (libcurl.4.dylib on Apple platforms).
const char *ccurl_load(void);
/// The loaded libcurl's version, as curl_version() gives it; "" before a successful load.
const char *ccurl_version(void);

CURLcode ccurl_global_init(long flags);
CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *handle);
void ccurl_easy_reset(CURL *handle);
CURLcode ccurl_easy_pause(CURL *handle, int bitmask);
const char *ccurl_easy_strerror(CURLcode code);
CURLM *ccurl_multi_init(void);
CURLMcode ccurl_multi_cleanup(CURLM *multi);
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode ccurl_multi_perform(CURLM *multi, int *running);
CURLMcode ccurl_multi_poll(CURLM *multi, void *extra, unsigned int count, int timeout_ms, int *numfds);
CURLMcode ccurl_multi_wakeup(CURLM *multi);
CURLMsg *ccurl_multi_info_read(CURLM *multi, int *left);
const char *ccurl_multi_strerror(CURLMcode code);
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *string);
void ccurl_slist_free_all(struct curl_slist *list);

// curl_easy_setopt and curl_multi_setopt are variadic, which Swift cannot call: each kind of
// argument (a long, a curl_off_t, a pointer, a string, a callback) has its own fixed signature.
// libcurl copies every string option it is given.
CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_setopt_data_callback(CURL *handle, CURLoption option, curl_write_callback callback);
CURLcode ccurl_setopt_seek_callback(CURL *handle, curl_seek_callback callback);
CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

/// The result of a finished transfer: CURLMsg's `data` is a union Swift reads awkwardly.
static inline CURLcode ccurl_message_result(const CURLMsg *message) { return message->data.result; }

#endif
