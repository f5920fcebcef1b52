#include "crates_curl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

// libcurl's functions, looked up once (under pthread_once, so any thread may be first).
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *load_error = NULL;
static char load_error_text[512];

#define RESOLVE(field, name)                                   \
    do {                                                       \
        *(void **)(&curl.field) = dlsym(library, name);        \
        if (curl.field == NULL) missing = name;                \
    } while (0)

static void load(void) {
    // The soname of libcurl 7.16 onwards (every libcurl with the functions used here).
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(load_error_text, sizeof load_error_text, "libcurl could not be loaded (%s)",
                 reason ? reason : "libcurl.so.4 not found");
        load_error = load_error_text;
        return;
    }
    const char *missing = NULL;
    RESOLVE(global_init, "curl_global_init");
    RESOLVE(easy_init, "curl_easy_init");
    RESOLVE(easy_cleanup, "curl_easy_cleanup");
    RESOLVE(easy_reset, "curl_easy_reset");
    RESOLVE(easy_perform, "curl_easy_perform");
    RESOLVE(easy_strerror, "curl_easy_strerror");
    RESOLVE(easy_setopt, "curl_easy_setopt");
    RESOLVE(easy_getinfo, "curl_easy_getinfo");
    RESOLVE(slist_append, "curl_slist_append");
    RESOLVE(slist_free_all, "curl_slist_free_all");
    if (missing != NULL) {
        snprintf(load_error_text, sizeof load_error_text, "libcurl.so.4 lacks %s (too old a libcurl)", missing);
        load_error = load_error_text;
    }
}

static int loaded(void) {
    pthread_once(&once, load);
    return load_error == NULL;
}

const char *crates_curl_load_error(void) { return loaded() ? NULL : load_error; }

CURLcode crates_curl_global_init(long flags) { return loaded() ? curl.global_init(flags) : CURLE_FAILED_INIT; }
CURL *crates_curl_easy_init(void) { return loaded() ? curl.easy_init() : NULL; }
// The functions below take a handle or a list, which only exists once libcurl is loaded.
void crates_curl_easy_cleanup(CURL *handle) { if (loaded()) curl.easy_cleanup(handle); }
void crates_curl_easy_reset(CURL *handle) { if (loaded()) curl.easy_reset(handle); }
CURLcode crates_curl_easy_perform(CURL *handle) { return loaded() ? curl.easy_perform(handle) : CURLE_FAILED_INIT; }
const char *crates_curl_easy_strerror(CURLcode code) { return loaded() ? curl.easy_strerror(code) : load_error; }
struct curl_slist *crates_curl_slist_append(struct curl_slist *list, const char *line) {
    return loaded() ? curl.slist_append(list, line) : NULL;
}
void crates_curl_slist_free_all(struct curl_slist *list) { if (loaded()) curl.slist_free_all(list); }

// Function pointer types named, so that the macro can put the parameter's name after them.
typedef size_t (*write_function)(char *, size_t, size_t, void *);
typedef int (*xferinfo_function)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);

#define SETOPT(name, type)                                                   \
    CURLcode name(CURL *h, CURLoption o, type v) {                           \
        return loaded() ? curl.easy_setopt(h, o, v) : CURLE_FAILED_INIT;     \
    }
SETOPT(crates_curl_setopt_long, long)
SETOPT(crates_curl_setopt_string, const char *)
SETOPT(crates_curl_setopt_pointer, void *)
SETOPT(crates_curl_setopt_slist, struct curl_slist *)
SETOPT(crates_curl_setopt_write_function, write_function)
SETOPT(crates_curl_setopt_xferinfo_function, xferinfo_function)

#define GETINFO(name, type)                                                  \
    CURLcode name(CURL *h, CURLINFO i, type v) {                             \
        return loaded() ? curl.easy_getinfo(h, i, v) : CURLE_FAILED_INIT;    \
    }
GETINFO(crates_curl_getinfo_long, long *)
GETINFO(crates_curl_getinfo_string, char **)
GETINFO(crates_curl_getinfo_double, double *)
