"""Signs requests with Python's oauthlib, the independent implementation the Swift tests
compare against.

Reads a JSON list of cases on stdin; writes a JSON list of results, one per case, with every
stage oauthlib computes on its own:

  collected        oauthlib's collect_parameters over the query and the form body, plus the
                   case's protocol parameters (oauthlib never sees our normalization)
  normalized       normalize_parameters(collected)
  base_string_uri  base_string_uri(url, host)
  base_string      signature_base_string(method, base_string_uri, normalized)
  signature        the sign_* function of the method over that base string
  client_signature the oauth_signature that oauthlib's own Client puts in the Authorization
                   header for the same request, nonce and timestamp
  client_authorization  that whole header, for the verifier tests
"""
import json
import sys
from urllib.parse import unquote, urlparse

from oauthlib import oauth1
from oauthlib.oauth1.rfc5849 import signature as sig

def hmac(name):
    return lambda base, c: sig._sign_hmac(name, base, c["consumer_secret"], c.get("token_secret") or "")


def rsa(name):
    return lambda base, c: sig._sign_rsa(name, base, c["rsa_private_key_pem"])


# oauthlib exposes public sign_* functions for only some methods; the underscore ones are
# what all of them, and its Client, call.
SIGNERS = {
    "HMAC-SHA1": hmac("SHA-1"),
    "HMAC-SHA256": hmac("SHA-256"),
    "HMAC-SHA512": hmac("SHA-512"),
    "RSA-SHA1": rsa("SHA-1"),
    "RSA-SHA256": rsa("SHA-256"),
    "RSA-SHA512": rsa("SHA-512"),
    "PLAINTEXT": lambda base, c: sig.sign_plaintext(c["consumer_secret"], c.get("token_secret") or ""),
}


def is_form(case):
    content_type = (case.get("content_type") or "").split(";")[0].strip().lower()
    return content_type == "application/x-www-form-urlencoded"


def stages(case):
    query = urlparse(case["url"]).query
    body = case.get("body") if is_form(case) else None
    collected = sig.collect_parameters(uri_query=query, body=body or [], exclude_oauth_signature=True)
    collected = list(collected) + [tuple(p) for p in case["oauth_params"]]
    normalized = sig.normalize_parameters(collected)
    uri = sig.base_string_uri(case["url"], case.get("host"))
    base = sig.signature_base_string(case["method"], uri, normalized)
    method = case["signature_method"]
    return {
        "collected": [list(p) for p in collected],
        "normalized": normalized,
        "base_string_uri": uri,
        "base_string": base,
        "signature": SIGNERS[method](base, case),
    }


def client_signature(case):
    oauth = dict(case["oauth_params"])
    client = oauth1.Client(
        oauth["oauth_consumer_key"],
        client_secret=case["consumer_secret"],
        resource_owner_key=oauth.get("oauth_token"),
        resource_owner_secret=case.get("token_secret"),
        signature_method=case["signature_method"],
        rsa_key=case.get("rsa_private_key_pem"),
        nonce=oauth["oauth_nonce"],
        timestamp=oauth["oauth_timestamp"],
        callback_uri=oauth.get("oauth_callback"),
        verifier=oauth.get("oauth_verifier"),
    )
    headers = {}
    if case.get("content_type"):
        headers["Content-Type"] = case["content_type"]
    _, signed_headers, _ = client.sign(case["url"], http_method=case["method"], body=case.get("body"), headers=headers)
    fields = dict(oauth1.rfc5849.utils.parse_authorization_header(signed_headers["Authorization"]))
    body_hash = fields.get("oauth_body_hash")
    return unquote(fields["oauth_signature"]), unquote(body_hash) if body_hash else None, signed_headers["Authorization"]


def main():
    results = []
    for case in json.load(sys.stdin):
        result = {"id": case["id"]}
        try:
            result.update(stages(case))
        except Exception as error:  # reported per case, so one failure does not hide the rest
            result["error"] = f"stages: {type(error).__name__}: {error}"
        if case.get("client", True):
            try:
                result["client_signature"], result["client_body_hash"], result["client_authorization"] = client_signature(case)
            except Exception as error:
                result["client_error"] = f"{type(error).__name__}: {error}"
        results.append(result)
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
