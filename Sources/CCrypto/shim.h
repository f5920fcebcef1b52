#ifndef CRATES_CCRYPTO_SHIM_H
#define CRATES_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

// HMAC-SHA1 for OAuth 1.0a signatures (RFC 5849 section 3.4.2), from OpenSSL's libcrypto,
// which libcurl-openssl links already. Returns the digest length (20), or 0 on failure.
static inline unsigned int crates_hmac_sha1(const void *key, int key_len,
                                            const unsigned char *data, size_t data_len,
                                            unsigned char *out /* 20 bytes */) {
    unsigned int len = 0;
    if (HMAC(EVP_sha1(), key, key_len, data, data_len, out, &len) == NULL) return 0;
    return len;
}
#endif
