// libcurl, loaded at run time (see include/CCurl.h for why and what is declared).
//
// Invariants: `api` is written once, inside pthread_once, before ccurl_load() returns NULL;
// after that it is only read, so the wrappers may be called from any thread. A wrapper is
// called only after ccurl_load() returned NULL (the Swift side checks it before making an
// engine), so none of the pointers is NULL when called.

#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

/// curl_version_info_data's first fields, the only ones read (the struct only ever grows at its
/// end; `age` says which fields exist).
struct ccurl_version_prefix {
  int age;
  const char *version;
  unsigned int version_num;
};

/// 7.85.0: CURLOPT_PROTOCOLS_STR; curl_multi_poll and curl_multi_wakeup are older (7.66, 7.68).
#define CCURL_OLDEST_VERSION 0x075500
#define CCURL_VERSION_NOW 10

static struct {
  CURLcode (*global_init)(long);
  CURL *(*easy_init)(void);
  void (*easy_cleanup)(CURL *);
  void (*easy_reset)(CURL *);
  CURLcode (*easy_pause)(CURL *, int);
  const char *(*easy_strerror)(CURLcode);
  CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
  CURLM *(*multi_init)(void);
  CURLMcode (*multi_cleanup)(CURLM *);
  CURLMcode (*multi_add_handle)(CURLM *, CURL *);
  CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
  CURLMcode (*multi_perform)(CURLM *, int *);
  CURLMcode (*multi_poll)(CURLM *, void *, unsigned int, int, int *);
  CURLMcode (*multi_wakeup)(CURLM *);
  CURLMsg *(*multi_info_read)(CURLM *, int *);
  const char *(*multi_strerror)(CURLMcode);
  CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
  struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
  void (*slist_free_all)(struct curl_slist *);
  const struct ccurl_version_prefix *(*version_info)(int);
} api;

static const char *load_error = "libcurl was not loaded";
static const char *loaded_version = "";
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static int find(void *library, const char *name, void **slot) {
  *slot = dlsym(library, name);
  return *slot != NULL;
}

static void load(void) {
  const char *path = getenv("NETWORKCLIENT_LIBCURL");
#if defined(__APPLE__)
  const char *fallback = "libcurl.4.dylib";
#else
  const char *fallback = "libcurl.so.4";
#endif
  void *library = dlopen(path && *path ? path : fallback, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    load_error = path && *path ? "the library NETWORKCLIENT_LIBCURL names could not be loaded" : "libcurl.so.4 could not be loaded";
    return;
  }
  int found = find(library, "curl_global_init", (void **)&api.global_init) && find(library, "curl_easy_init", (void **)&api.easy_init) &&
    find(library, "curl_easy_cleanup", (void **)&api.easy_cleanup) && find(library, "curl_easy_reset", (void **)&api.easy_reset) &&
    find(library, "curl_easy_pause", (void **)&api.easy_pause) && find(library, "curl_easy_strerror", (void **)&api.easy_strerror) &&
    find(library, "curl_easy_setopt", (void **)&api.easy_setopt) && find(library, "curl_multi_init", (void **)&api.multi_init) &&
    find(library, "curl_multi_cleanup", (void **)&api.multi_cleanup) && find(library, "curl_multi_add_handle", (void **)&api.multi_add_handle) &&
    find(library, "curl_multi_remove_handle", (void **)&api.multi_remove_handle) &&
    find(library, "curl_multi_perform", (void **)&api.multi_perform) && find(library, "curl_multi_poll", (void **)&api.multi_poll) &&
    find(library, "curl_multi_wakeup", (void **)&api.multi_wakeup) && find(library, "curl_multi_info_read", (void **)&api.multi_info_read) &&
    find(library, "curl_multi_strerror", (void **)&api.multi_strerror) && find(library, "curl_multi_setopt", (void **)&api.multi_setopt) &&
    find(library, "curl_slist_append", (void **)&api.slist_append) && find(library, "curl_slist_free_all", (void **)&api.slist_free_all) &&
    find(library, "curl_version_info", (void **)&api.version_info);
  if (!found) {
    load_error = "libcurl lacks a function the transport needs";
    return;
  }
  const struct ccurl_version_prefix *info = api.version_info(CCURL_VERSION_NOW);
  if (!info || info->version_num < CCURL_OLDEST_VERSION) {
    load_error = "libcurl is older than 7.85.0";
    return;
  }
  loaded_version = info->version ? info->version : "";
  load_error = NULL;
}

const char *ccurl_load(void) {
  pthread_once(&load_once, load);
  return load_error;
}

const char *ccurl_version(void) { return loaded_version; }

CURLcode ccurl_global_init(long flags) { return api.global_init(flags); }
CURL *ccurl_easy_init(void) { return api.easy_init(); }
void ccurl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }
void ccurl_easy_reset(CURL *handle) { api.easy_reset(handle); }
CURLcode ccurl_easy_pause(CURL *handle, int bitmask) { return api.easy_pause(handle, bitmask); }
const char *ccurl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }
CURLM *ccurl_multi_init(void) { return api.multi_init(); }
CURLMcode ccurl_multi_cleanup(CURLM *multi) { return api.multi_cleanup(multi); }
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *handle) { return api.multi_add_handle(multi, handle); }
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *handle) { return api.multi_remove_handle(multi, handle); }
CURLMcode ccurl_multi_perform(CURLM *multi, int *running) { return api.multi_perform(multi, running); }
CURLMcode ccurl_multi_poll(CURLM *multi, void *extra, unsigned int count, int timeout_ms, int *numfds) {
  return api.multi_poll(multi, extra, count, timeout_ms, numfds);
}
CURLMcode ccurl_multi_wakeup(CURLM *multi) { return api.multi_wakeup(multi); }
CURLMsg *ccurl_multi_info_read(CURLM *multi, int *left) { return api.multi_info_read(multi, left); }
const char *ccurl_multi_strerror(CURLMcode code) { return api.multi_strerror(code); }
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *string) { return api.slist_append(list, string); }
void ccurl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) { return api.easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) { return api.easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) { return api.easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) { return api.easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_data_callback(CURL *handle, CURLoption option, curl_write_callback callback) {
  return api.easy_setopt(handle, option, callback);
}
CURLcode ccurl_setopt_seek_callback(CURL *handle, curl_seek_callback callback) {
  return api.easy_setopt(handle, CURLOPT_SEEKFUNCTION, callback);
}
CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) { return api.multi_setopt(multi, option, value); }
