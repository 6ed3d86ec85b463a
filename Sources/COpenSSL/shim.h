#ifndef OAUTH1_COPENSSL_SHIM_H
#define OAUTH1_COPENSSL_SHIM_H

// Only what the OAuth1 crypto backend uses: HMAC, digests, RSA PKCS#1 v1.5 signatures,
// PEM key loading and the CSPRNG. Declared here so Swift sees a single module.
#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#endif
