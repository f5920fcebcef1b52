#ifndef CRATES_CCURL_H
#define CRATES_CCURL_H
#include <curl/curl.h>

// libcurl is loaded when the first transfer needs it, not when crates starts: its tree of
// libraries (TLS, Kerberos, LDAP, HTTP/2…) costs more to load than a whole `crates check`
// takes, and most commands never touch the network. The header gives the types and the
// constants; every function is called through these wrappers, which load libcurl first.

// Whether libcurl is loaded (loading it on the first call); when it is not, what the
// dynamic loader said (a static string), else NULL.
const char *crates_curl_load_error(void);

CURLcode crates_curl_global_init(long flags);
CURL *crates_curl_easy_init(void);
void crates_curl_easy_cleanup(CURL *handle);
void crates_curl_easy_reset(CURL *handle);
CURLcode crates_curl_easy_perform(CURL *handle);
const char *crates_curl_easy_strerror(CURLcode code);
struct curl_slist *crates_curl_slist_append(struct curl_slist *list, const char *line);
void crates_curl_slist_free_all(struct curl_slist *list);

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
// wrapper per argument kind.
CURLcode crates_curl_setopt_long(CURL *h, CURLoption o, long v);
CURLcode crates_curl_setopt_string(CURL *h, CURLoption o, const char *v);
CURLcode crates_curl_setopt_pointer(CURL *h, CURLoption o, void *v);
CURLcode crates_curl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v);
CURLcode crates_curl_setopt_write_function(CURL *h, CURLoption o, size_t (*f)(char *, size_t, size_t, void *));
CURLcode crates_curl_setopt_xferinfo_function(
    CURL *h, CURLoption o, int (*f)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t));
CURLcode crates_curl_getinfo_long(CURL *h, CURLINFO i, long *v);
CURLcode crates_curl_getinfo_string(CURL *h, CURLINFO i, char **v);
CURLcode crates_curl_getinfo_double(CURL *h, CURLINFO i, double *v);

#endif
