// OpenSSL's libssl for the Redis nonce store's rediss:// connections: the TLS client only.
// The macros Swift cannot import are wrapped in functions here.
#ifndef CLIBSSL_SHIM_H
#define CLIBSSL_SHIM_H

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

/// SNI: the server name sent in the ClientHello.
static inline int clibssl_set_server_name(SSL *ssl, const char *name) { return (int)SSL_set_tlsext_host_name(ssl, name); }

/// TLS 1.2 or later only.
static inline int clibssl_require_tls12(SSL_CTX *context) { return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION); }

#endif
