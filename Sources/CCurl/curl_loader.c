// libcurl loaded with dlopen on first use (see curl_loader.h).

#include "curl_loader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/// libcurl's entry points, resolved once.
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;                 // set once, by load()
static char load_error[256];       // why not, when not

#define RESOLVE(library, field, name)                                                              \
    do {                                                                                           \
        *(void **)&api.field = dlsym(library, name);                                               \
        if (!api.field) {                                                                          \
            snprintf(load_error, sizeof load_error, "libcurl.so.4 has no %s: it is too old", name); \
            return;                                                                                \
        }                                                                                          \
    } while (0)

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error,
                 "remote sources need libcurl (Debian package libcurl4), which cannot be loaded: %s", dlerror());
        return;
    }
    RESOLVE(library, global_init, "curl_global_init");
    RESOLVE(library, easy_init, "curl_easy_init");
    RESOLVE(library, easy_cleanup, "curl_easy_cleanup");
    RESOLVE(library, easy_strerror, "curl_easy_strerror");
    RESOLVE(library, easy_setopt, "curl_easy_setopt");
    RESOLVE(library, easy_getinfo, "curl_easy_getinfo");
    RESOLVE(library, slist_append, "curl_slist_append");
    RESOLVE(library, slist_free_all, "curl_slist_free_all");
    RESOLVE(library, multi_init, "curl_multi_init");
    RESOLVE(library, multi_add_handle, "curl_multi_add_handle");
    RESOLVE(library, multi_remove_handle, "curl_multi_remove_handle");
    RESOLVE(library, multi_perform, "curl_multi_perform");
    RESOLVE(library, multi_info_read, "curl_multi_info_read");
    RESOLVE(library, multi_poll, "curl_multi_poll");
    RESOLVE(library, multi_wakeup, "curl_multi_wakeup");
    if (api.global_init(CURL_GLOBAL_ALL) != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "libcurl could not be initialised");
        return;
    }
    loaded = 1;
}

int mc_curl_load(char *errbuf, size_t errlen) {
    pthread_once(&once, load);
    if (loaded) return 0;
    if (errbuf && errlen) snprintf(errbuf, errlen, "%s", load_error);
    return -1;
}

CURL *mc_curl_easy_init(void) { return api.easy_init(); }
void mc_curl_easy_cleanup(CURL *easy) { api.easy_cleanup(easy); }
const char *mc_curl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }
CURLcode mc_curl_set_long(CURL *easy, CURLoption option, long value) { return api.easy_setopt(easy, option, value); }
CURLcode mc_curl_set_offset(CURL *easy, CURLoption option, curl_off_t value) { return api.easy_setopt(easy, option, value); }
CURLcode mc_curl_set_string(CURL *easy, CURLoption option, const char *value) { return api.easy_setopt(easy, option, value); }
CURLcode mc_curl_set_pointer(CURL *easy, CURLoption option, void *value) { return api.easy_setopt(easy, option, value); }
CURLcode mc_curl_set_headers(CURL *easy, struct curl_slist *headers) { return api.easy_setopt(easy, CURLOPT_HTTPHEADER, headers); }
CURLcode mc_curl_set_write_callback(CURL *easy, mc_curl_data_callback callback) {
    return api.easy_setopt(easy, CURLOPT_WRITEFUNCTION, callback);
}
CURLcode mc_curl_set_header_callback(CURL *easy, mc_curl_data_callback callback) {
    return api.easy_setopt(easy, CURLOPT_HEADERFUNCTION, callback);
}

long mc_curl_response_code(CURL *easy) {
    long code = 0;
    api.easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

long mc_curl_os_errno(CURL *easy) {
    long code = 0;
    api.easy_getinfo(easy, CURLINFO_OS_ERRNO, &code);
    return code;
}

struct curl_slist *mc_curl_slist_append(struct curl_slist *list, const char *line) { return api.slist_append(list, line); }
void mc_curl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }
CURLM *mc_curl_multi_init(void) { return api.multi_init(); }
CURLMcode mc_curl_multi_add_handle(CURLM *multi, CURL *easy) { return api.multi_add_handle(multi, easy); }
CURLMcode mc_curl_multi_remove_handle(CURLM *multi, CURL *easy) { return api.multi_remove_handle(multi, easy); }
CURLMcode mc_curl_multi_perform(CURLM *multi, int *running) { return api.multi_perform(multi, running); }
CURLMsg *mc_curl_multi_info_read(CURLM *multi, int *left) { return api.multi_info_read(multi, left); }
CURLMcode mc_curl_multi_poll(CURLM *multi, int timeout_ms) { return api.multi_poll(multi, NULL, 0, timeout_ms, NULL); }
CURLMcode mc_curl_multi_wakeup(CURLM *multi) { return api.multi_wakeup(multi); }

int mc_curl_message_done(const CURLMsg *message, CURL **easy, CURLcode *result) {
    if (message == NULL || message->msg != CURLMSG_DONE) return 0;
    *easy = message->easy_handle;
    *result = message->data.result;
    return 1;
}
