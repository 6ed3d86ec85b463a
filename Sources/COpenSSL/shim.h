#ifndef OAUTH1_COPENSSL_SHIM_H
#define OAUTH1_COPENSSL_SHIM_H

// The low-level SHA functions are deprecated in OpenSSL 3 in favour of EVP, but they remain the
// cheapest way to keep precomputed HMAC pad states: plain structs, copied by value, with no
// allocation and no provider lookup per signature. They are used only by the helpers below.
#define OPENSSL_SUPPRESS_DEPRECATED 1

// The package's one view of OpenSSL. libcrypto, for CryptoPrimitives: HMAC, digests, RSA
// PKCS#1 v1.5 signatures, PEM key loading and the CSPRNG. libssl, for OAuth1Redis's rediss://
// connections: the TLS client only. Declared here so Swift sees a single module.
#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <stdint.h>
#include <string.h>

// Wipes secret material (a key, a pad, a hash state) so that no copy outlives its use.
// glibc's explicit_bzero is a memset the compiler may not remove, several times cheaper than
// OPENSSL_cleanse's byte loop, the fallback on other C libraries.
static inline void oauth1_wipe(void *pointer, size_t length) {
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 25)
  explicit_bzero(pointer, length);
#else
  OPENSSL_cleanse(pointer, length);
#endif
}

// HMAC (RFC 2104) with the key's pad states hashed once: the inner and outer contexts after
// absorbing key^ipad and key^opad. Signing a message then costs two copies of a small struct
// and the hashing of the message and of the inner digest. The states are read-only once
// prepared, so one prepared key serves many threads at once.
#define OAUTH1_HMAC_HELPERS(NAME, CTX, INIT, UPDATE, TRANSFORM, FINAL, BLOCK, LENGTH)    \
  typedef struct { CTX inner; CTX outer; } oauth1_hmac_##NAME##_key;                            \
  static inline void oauth1_hmac_##NAME##_prepare(oauth1_hmac_##NAME##_key *state,              \
                                                  const uint8_t *key, size_t key_length) {      \
    uint8_t block[BLOCK];                                                                       \
    uint8_t pad[BLOCK];                                                                         \
    memset(block, 0, BLOCK);                                                                    \
    if (key_length > BLOCK) {                                                                   \
      CTX key_context; /* the low-level calls: the one-shot goes through EVP's fetch */         \
      INIT(&key_context);                                                                       \
      UPDATE(&key_context, key, key_length);                                                    \
      FINAL(block, &key_context);                                                               \
      oauth1_wipe(&key_context, sizeof key_context);                                            \
    } else if (key_length > 0) {                                                                \
      memcpy(block, key, key_length);                                                           \
    }                                                                                           \
    /* Each pad is exactly one block: compressed directly, its length (in bits) set as   */   \
    /* UPDATE would have set it, without UPDATE's buffering.                             */   \
    for (int i = 0; i < BLOCK; i++) pad[i] = block[i] ^ 0x36;                                   \
    INIT(&state->inner);                                                                        \
    TRANSFORM(&state->inner, pad);                                                              \
    state->inner.Nl = BLOCK * 8;                                                                \
    for (int i = 0; i < BLOCK; i++) pad[i] = block[i] ^ 0x5c;                                   \
    INIT(&state->outer);                                                                        \
    TRANSFORM(&state->outer, pad);                                                              \
    state->outer.Nl = BLOCK * 8;                                                                \
    oauth1_wipe(block, BLOCK);                                                                  \
    oauth1_wipe(pad, BLOCK);                                                                    \
  }                                                                                             \
  static inline void oauth1_hmac_##NAME##_sign(const oauth1_hmac_##NAME##_key *state,          \
                                               const uint8_t *message, size_t length,           \
                                               uint8_t *out) {                                  \
    CTX context = state->inner;                                                                 \
    uint8_t inner[LENGTH];                                                                      \
    UPDATE(&context, message, length);                                                          \
    FINAL(inner, &context);                                                                     \
    context = state->outer;                                                                     \
    UPDATE(&context, inner, LENGTH);                                                            \
    FINAL(out, &context);                                                                       \
    oauth1_wipe(&context, sizeof context);                                                      \
  }

OAUTH1_HMAC_HELPERS(sha1, SHA_CTX, SHA1_Init, SHA1_Update, SHA1_Transform, SHA1_Final, 64, 20)
OAUTH1_HMAC_HELPERS(sha256, SHA256_CTX, SHA256_Init, SHA256_Update, SHA256_Transform, SHA256_Final, 64, 32)
OAUTH1_HMAC_HELPERS(sha512, SHA512_CTX, SHA512_Init, SHA512_Update, SHA512_Transform, SHA512_Final, 128, 64)

// The TLS client's macros, which Swift cannot import, as functions.

// SNI: the server name sent in the ClientHello.
static inline int oauth1_tls_set_server_name(SSL *ssl, const char *name) { return (int)SSL_set_tlsext_host_name(ssl, name); }

// TLS 1.2 or later only.
static inline int oauth1_tls_require_tls12(SSL_CTX *context) { return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION); }

// PKCS#12 (.p12, .pfx), as Mastercard and others ship signing keys: the private key of a
// password-protected bundle, in C because the certificate stack's free function is a macro
// Swift cannot import. On success returns OAUTH1_P12_OK with *key set (the caller frees it);
// otherwise *key is NULL and the result says why. The password's bytes are only read.
#define OAUTH1_P12_OK 0
#define OAUTH1_P12_NOT_PKCS12 1     // the bytes are not a PKCS#12 structure (OpenSSL's queue says why)
#define OAUTH1_P12_WRONG_PASSWORD 2 // the integrity MAC does not verify with this password
#define OAUTH1_P12_NO_KEY 3         // it opens, but holds certificates only
#define OAUTH1_P12_UNREADABLE 4     // it opens, but a part cannot be decrypted (a legacy cipher, say)
static inline int oauth1_pkcs12_private_key(const uint8_t *der, long length, const char *password, EVP_PKEY **key) {
  *key = NULL;
  const unsigned char *cursor = der;
  PKCS12 *p12 = d2i_PKCS12(NULL, &cursor, length);
  if (p12 == NULL) return OAUTH1_P12_NOT_PKCS12;
  if (PKCS12_mac_present(p12)) {
    // An empty password may have been used as "" or as none: PKCS12_parse tries both, so do we.
    int verified = PKCS12_verify_mac(p12, password, -1);
    if (!verified && password[0] == '\0') verified = PKCS12_verify_mac(p12, NULL, 0);
    if (!verified) {
      PKCS12_free(p12);
      ERR_clear_error();
      return OAUTH1_P12_WRONG_PASSWORD;
    }
  }
  X509 *certificate = NULL;
  STACK_OF(X509) *chain = NULL;
  int parsed = PKCS12_parse(p12, password, key, &certificate, &chain);
  PKCS12_free(p12);
  X509_free(certificate);
  sk_X509_pop_free(chain, X509_free);
  if (!parsed) {
    EVP_PKEY_free(*key);
    *key = NULL;
    return OAUTH1_P12_UNREADABLE;
  }
  return *key == NULL ? OAUTH1_P12_NO_KEY : OAUTH1_P12_OK;
}

#endif
