"""An independent client for `oauth1 serve --profile NAME`: Python's requests-oauthlib signs each
request as a provider's own client would (its realm, its signature method, its key), and oauthlib's
server-side routines compute the base string of the request as it was sent. The Swift test
(OAuth1CLITests/ServeProfileTests) judges the answers.

Reads a JSON object on stdin: base_url and requests, each with name, method, path, auth (the
keyword arguments of requests_oauthlib.OAuth1: client_key, client_secret, resource_owner_key,
resource_owner_secret, signature_method, realm, rsa_key, callback_uri, verifier), and optionally
body, content_type and tamper_path (the path the signed request is then sent to, to make its
signature invalid). Writes a JSON list, one object per request: name, status, www_authenticate,
content_type, body (the text) and oauthlib_base_string (of the request as sent).
"""
import json
import sys
from urllib.parse import urlparse

import requests
from oauthlib.oauth1.rfc5849 import signature as sig
from requests_oauthlib import OAuth1

config = json.load(sys.stdin)
base = config["base_url"].rstrip("/")
http = requests.Session()
http.trust_env = False  # no proxy from the environment between us and loopback


def oauthlib_base_string(prepared):
    body = prepared.body
    if isinstance(body, bytes):
        body = body.decode("utf-8")
    text = {k.lower(): v.decode("utf-8") if isinstance(v, bytes) else v for k, v in prepared.headers.items()}
    content_type = (text.get("content-type") or "").split(";")[0].strip().lower()
    form = body if content_type == "application/x-www-form-urlencoded" and body else ""
    headers = {"Authorization": text["authorization"]} if "authorization" in text else {}
    params = sig.collect_parameters(uri_query=urlparse(prepared.url).query, body=form, headers=headers, exclude_oauth_signature=True)
    return sig.signature_base_string(prepared.method, sig.base_string_uri(prepared.url), sig.normalize_parameters(params))


results = []
for case in config["requests"]:
    headers = {"Content-Type": case["content_type"]} if case.get("content_type") else {}
    prepared = requests.Request(
        case["method"], base + case["path"], auth=OAuth1(**case["auth"]), data=case.get("body"), headers=headers).prepare()
    if case.get("tamper_path"):
        prepared.url = base + case["tamper_path"]
    response = http.send(prepared, allow_redirects=False)
    results.append({
        "name": case["name"],
        "status": response.status_code,
        "www_authenticate": response.headers.get("WWW-Authenticate"),
        "content_type": response.headers.get("Content-Type"),
        "body": response.text,
        "oauthlib_base_string": oauthlib_base_string(prepared),
    })
json.dump(results, sys.stdout)
