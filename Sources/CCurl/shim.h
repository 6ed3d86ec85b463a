#ifndef NETWORKCLIENT_CCURL_SHIM_H
#define NETWORKCLIENT_CCURL_SHIM_H

// The package's one view of libcurl, for NetworkClient's CurlTransport. curl_easy_setopt,
// curl_multi_setopt and curl_easy_getinfo are variadic, which Swift cannot call: the typed
// wrappers below pass each kind of argument (a long, a curl_off_t, a pointer, a string, a
// callback) through one fixed signature. libcurl copies every string option it is given.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

static inline CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_data_callback(CURL *handle, CURLoption option, curl_write_callback callback) {
  return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode ccurl_setopt_seek_callback(CURL *handle, curl_seek_callback callback) {
  return curl_easy_setopt(handle, CURLOPT_SEEKFUNCTION, callback);
}

static inline CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
  return curl_multi_setopt(multi, option, value);
}

static inline CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
  return curl_easy_getinfo(handle, info, value);
}

// The result of a finished transfer: CURLMsg's `data` is a union Swift reads awkwardly.
static inline CURLcode ccurl_message_result(const CURLMsg *message) {
  return message->data.result;
}

#endif
