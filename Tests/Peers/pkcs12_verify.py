"""Checks RSA signatures with Python's cryptography, an implementation the package did not write.

Reads a JSON object on stdin:

  certificate_pem  the certificate whose public key verifies
  pkcs12_base64    the PKCS#12 file the key came from, and its password (for the signing check)
  password
  cases            a list of {base_string, signature (base64), digest: "SHA-1" | "SHA-256"}

Writes a JSON list, one object per case: verified (the certificate's public key accepts the
signature of the base string) and resigned_equal (cryptography, opening the PKCS#12 file with
the password itself, signs the base string to the same bytes: PKCS #1 v1.5 is deterministic).
"""
import base64
import json
import sys

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding
from cryptography.hazmat.primitives.serialization import pkcs12

DIGESTS = {"SHA-1": hashes.SHA1, "SHA-256": hashes.SHA256, "SHA-512": hashes.SHA512}


def main():
    request = json.load(sys.stdin)
    public_key = x509.load_pem_x509_certificate(request["certificate_pem"].encode()).public_key()
    private_key, _, _ = pkcs12.load_key_and_certificates(
        base64.b64decode(request["pkcs12_base64"]), request["password"].encode())
    results = []
    for case in request["cases"]:
        message = case["base_string"].encode()
        signature = base64.b64decode(case["signature"])
        digest = DIGESTS[case["digest"]]
        try:
            public_key.verify(signature, message, padding.PKCS1v15(), digest())
            verified = True
        except InvalidSignature:
            verified = False
        resigned = private_key.sign(message, padding.PKCS1v15(), digest())
        results.append({"verified": verified, "resigned_equal": resigned == signature})
    json.dump(results, sys.stdout)


main()
