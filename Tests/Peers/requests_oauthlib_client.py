"""An independent OAuth 1.0a client against `oauth1 serve`: Python's requests-oauthlib (over
oauthlib) runs the three-legged flow, then signs protected requests every way it can, and the
refusals a provider must give. The Swift test (OAuth1CLITests/ServeCommandTests) judges the
answers.

Reads a JSON object on stdin: base_url, consumer_key, consumer_secret, rsa_private_key_pem.
Writes a JSON object: "flow" (what each step of the two flows returned, secrets left out),
"issued_secrets" (the secrets and verifiers the provider issued, which its log must not hold) and
"results", one per request: name, status, www_authenticate, body (the JSON answer, or the text),
and oauthlib_base_string, the base string oauthlib's own server-side routines compute for the
request as it was sent (to compare with the provider's base_string), and signed_base_string when
the request was changed after signing.
"""
import json
import re
import sys
import time
from urllib.parse import parse_qsl, urlparse

import requests
from oauthlib import oauth1
from oauthlib.oauth1.rfc5849 import signature as sig
from requests_oauthlib import OAuth1, OAuth1Session

config = json.load(sys.stdin)
base = config["base_url"].rstrip("/")
ck, cs = config["consumer_key"], config["consumer_secret"]
rsa_pem = config.get("rsa_private_key_pem")
callback = "http://127.0.0.1:9/callback"

http = requests.Session()
http.trust_env = False  # no proxy from the environment between us and loopback


def session(**kwargs):
    s = OAuth1Session(ck, client_secret=cs, **kwargs)
    s.trust_env = False
    return s


def oauthlib_base_string(prepared):
    """The base string oauthlib's server side computes for the request as it goes on the wire."""
    url = prepared.url
    body = prepared.body
    if isinstance(body, bytes):
        body = body.decode("utf-8")
    # requests-oauthlib leaves some header values as bytes.
    text = {k.lower(): v.decode("utf-8") if isinstance(v, bytes) else v for k, v in prepared.headers.items()}
    content_type = (text.get("content-type") or "").split(";")[0].strip().lower()
    form = body if content_type == "application/x-www-form-urlencoded" and body else ""
    headers = {"Authorization": text["authorization"]} if "authorization" in text else {}
    params = sig.collect_parameters(uri_query=urlparse(url).query, body=form, headers=headers, exclude_oauth_signature=True)
    normalized = sig.normalize_parameters(params)
    return sig.signature_base_string(prepared.method, sig.base_string_uri(url), normalized)


results = []


def send(name, method, url, auth, tamper=None, repeat=1, **kwargs):
    prepared = requests.Request(method, url, auth=auth, **kwargs).prepare()
    signed = oauthlib_base_string(prepared)
    if tamper:
        tamper(prepared)
    for attempt in range(repeat):
        response = http.send(prepared, allow_redirects=False)
        try:
            body = response.json()
        except ValueError:
            body = response.text
        entry = {
            "name": name if repeat == 1 else f"{name}#{attempt + 1}",
            "status": response.status_code,
            "www_authenticate": response.headers.get("WWW-Authenticate"),
            "body": body,
            "oauthlib_base_string": oauthlib_base_string(prepared),
        }
        if tamper:
            entry["signed_base_string"] = signed
        results.append(entry)


flow = {}

# The three-legged flow with a callback: the authorize page redirects to it at once.
oauth = session(callback_uri=callback)
temporary = oauth.fetch_request_token(base + "/oauth/request_token")
flow["request_token_fields"] = sorted(temporary)
authorize = oauth.authorization_url(base + "/oauth/authorize")
redirect = http.get(authorize, allow_redirects=False)
location = redirect.headers.get("Location", "")
flow["authorize_status"] = redirect.status_code
flow["redirect_to_callback"] = location.startswith(callback + "?")
returned = oauth.parse_authorization_response(location)
flow["redirect_fields"] = sorted(k for k in returned if k.startswith("oauth_"))
flow["redirect_token_matches"] = returned.get("oauth_token") == temporary.get("oauth_token")
access = oauth.fetch_access_token(base + "/oauth/access_token")
flow["access_token_fields"] = sorted(access)
token, token_secret = access["oauth_token"], access["oauth_token_secret"]

# The request token is single-use: a second exchange is refused.
again = OAuth1(
    ck, cs, temporary["oauth_token"], temporary["oauth_token_secret"], verifier=returned.get("oauth_verifier", ""))
send("request token exchanged twice", "POST", base + "/oauth/access_token", again)

# The out-of-band flow: the authorize page shows the PIN.
oob = session(callback_uri="oob")
oob_temporary = oob.fetch_request_token(base + "/oauth/request_token")
page = http.get(oob.authorization_url(base + "/oauth/authorize"), allow_redirects=False)
flow["oob_authorize_status"] = page.status_code
pin = re.search(r'<code id="oauth_verifier">([^<]+)</code>', page.text)
flow["oob_pin_shown"] = pin is not None
wrong = OAuth1(ck, cs, oob_temporary["oauth_token"], oob_temporary["oauth_token_secret"], verifier="not-the-pin")
send("wrong verifier", "POST", base + "/oauth/access_token", wrong)
oob_access = oob.fetch_access_token(base + "/oauth/access_token", verifier=pin.group(1) if pin else "")
flow["oob_access_token_fields"] = sorted(oob_access)

# A request token without oauth_callback is refused.
send("request token without callback", "POST", base + "/oauth/request_token", OAuth1(ck, cs))

# Protected requests signed with the token the flow issued, in every transmission and method.
methods = [oauth1.SIGNATURE_HMAC_SHA1, oauth1.SIGNATURE_HMAC_SHA256, oauth1.SIGNATURE_HMAC_SHA512, oauth1.SIGNATURE_PLAINTEXT]
if rsa_pem:
    methods += [oauth1.SIGNATURE_RSA_SHA1, oauth1.SIGNATURE_RSA_SHA256, oauth1.SIGNATURE_RSA_SHA512]
transmissions = {
    "header": oauth1.SIGNATURE_TYPE_AUTH_HEADER,
    "query": oauth1.SIGNATURE_TYPE_QUERY,
    "body": oauth1.SIGNATURE_TYPE_BODY,
}
for method in methods:
    for placement, signature_type in transmissions.items():
        key = {"rsa_key": rsa_pem} if method.startswith("RSA") else {}
        auth = OAuth1(ck, cs, token, token_secret, signature_method=method, signature_type=signature_type, **key)
        url = base + "/1.1/statuses/update.json?include_entities=true&q=caf%C3%A9%20%26%20more"
        if placement == "body":
            send(f"{method} {placement}", "POST", url, auth, data={"status": "Hello Ladies + Gentlemen, a signed OAuth request!", "n": "1"})
        else:
            send(f"{method} {placement}", "GET", url, auth)

# A JSON body, covered by oauth_body_hash (oauthlib adds it when it is given the body).
hashed = OAuth1(ck, cs, token, token_secret, force_include_body=True)
send("json body hash", "POST", base + "/items", hashed, data=b'{"text":"hello"}', headers={"Content-Type": "application/json"})
# The same, its body changed after signing.
send(
    "json body changed", "POST", base + "/items", hashed, data=b'{"text":"hello"}', headers={"Content-Type": "application/json"},
    tamper=lambda p: setattr(p, "body", b'{"text":"HELLO"}'))

# Two-legged: the consumer alone.
send("two-legged", "GET", base + "/items?page=2", OAuth1(ck, cs))

# Refusals.
send("wrong consumer secret", "GET", base + "/items?page=2", OAuth1(ck, "not-the-secret", token, token_secret))


def change_query(prepared):
    prepared.url = prepared.url.replace("page=2", "page=3")


send("query changed after signing", "GET", base + "/items?page=2", OAuth1(ck, cs, token, token_secret), tamper=change_query)
stale = str(int(time.time()) - 3600)
send("stale timestamp", "GET", base + "/items", OAuth1(ck, cs, token, token_secret, timestamp=stale))
send(
    "replayed nonce", "GET", base + "/items",
    OAuth1(ck, cs, token, token_secret, nonce="a-nonce-used-twice", timestamp=str(int(time.time()))), repeat=2)
send("unknown consumer key", "GET", base + "/items", OAuth1("not-the-key", cs, token, token_secret))
send("unknown token", "GET", base + "/items", OAuth1(ck, cs, "not-a-token", token_secret))

# What the provider issued, which its request log must not hold.
issued = [
    temporary["oauth_token_secret"], returned.get("oauth_verifier"), token_secret, oob_temporary["oauth_token_secret"],
    pin.group(1) if pin else None, oob_access["oauth_token_secret"],
]
json.dump({"flow": flow, "results": results, "issued_secrets": [s for s in issued if s]}, sys.stdout, indent=1)
