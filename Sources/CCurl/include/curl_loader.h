// libcurl, loaded on first use (dlopen of libcurl.so.4) rather than at start-up: a render that
// asks no server never maps libcurl and the thirty-odd libraries it brings (TLS, Kerberos,
// LDAP, SSH...). Types and constants come from Debian's <curl/curl.h>; every call goes
// through the loaded library. The wrappers also give Swift typed forms of libcurl's variadic
// setters and getters, which it cannot call.
#ifndef MAPCOMPOSE_CURL_LOADER_H
#define MAPCOMPOSE_CURL_LOADER_H

#include <curl/curl.h>
#include <stddef.h>

/// Loads libcurl once (thread-safe) and initialises it: 0 when it is ready, else -1 with a
/// message naming the library and the Debian package that has it.
int mc_curl_load(char *errbuf, size_t errlen);

// The calls below may be made only once mc_curl_load returned 0.

CURL *mc_curl_easy_init(void);
void mc_curl_easy_cleanup(CURL *easy);
const char *mc_curl_easy_strerror(CURLcode code);
CURLcode mc_curl_set_long(CURL *easy, CURLoption option, long value);
CURLcode mc_curl_set_offset(CURL *easy, CURLoption option, curl_off_t value);
CURLcode mc_curl_set_string(CURL *easy, CURLoption option, const char *value);
CURLcode mc_curl_set_pointer(CURL *easy, CURLoption option, void *value);
CURLcode mc_curl_set_headers(CURL *easy, struct curl_slist *headers);

typedef size_t (*mc_curl_data_callback)(char *data, size_t size, size_t count, void *context);
CURLcode mc_curl_set_write_callback(CURL *easy, mc_curl_data_callback callback);
CURLcode mc_curl_set_header_callback(CURL *easy, mc_curl_data_callback callback);

/// The answer's status (0 before one arrived).
long mc_curl_response_code(CURL *easy);
/// The system's errno of the last failure (0 when none).
long mc_curl_os_errno(CURL *easy);

struct curl_slist *mc_curl_slist_append(struct curl_slist *list, const char *line);
void mc_curl_slist_free_all(struct curl_slist *list);

CURLM *mc_curl_multi_init(void);
CURLMcode mc_curl_multi_add_handle(CURLM *multi, CURL *easy);
CURLMcode mc_curl_multi_remove_handle(CURLM *multi, CURL *easy);
CURLMcode mc_curl_multi_perform(CURLM *multi, int *running);
CURLMsg *mc_curl_multi_info_read(CURLM *multi, int *left);
/// Waits up to `timeout_ms` for activity on the transfers' sockets or a wake-up.
CURLMcode mc_curl_multi_poll(CURLM *multi, int timeout_ms);
CURLMcode mc_curl_multi_wakeup(CURLM *multi);

/// The easy handle and result of a finished transfer, or 0 when `message` is not one.
int mc_curl_message_done(const CURLMsg *message, CURL **easy, CURLcode *result);

#endif
