// libcurl (Debian's libcurl4-openssl-dev), with typed wrappers for its variadic setters and
// getters, which Swift cannot call.
#include <curl/curl.h>

static inline CURLcode mc_curl_set_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode mc_curl_set_offset(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode mc_curl_set_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode mc_curl_set_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode mc_curl_set_headers(CURL *easy, struct curl_slist *headers) {
    return curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
}

typedef size_t (*mc_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode mc_curl_set_write_callback(CURL *easy, mc_curl_data_callback callback) {
    return curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode mc_curl_set_header_callback(CURL *easy, mc_curl_data_callback callback) {
    return curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, callback);
}

static inline long mc_curl_response_code(CURL *easy) {
    long code = 0;
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

static inline long mc_curl_os_errno(CURL *easy) {
    long code = 0;
    curl_easy_getinfo(easy, CURLINFO_OS_ERRNO, &code);
    return code;
}

/// The easy handle and result of a finished transfer, or 0 when `message` is not one.
static inline int mc_curl_message_done(const CURLMsg *message, CURL **easy, CURLcode *result) {
    if (message == NULL || message->msg != CURLMSG_DONE) return 0;
    *easy = message->easy_handle;
    *result = message->data.result;
    return 1;
}
