"""A generic fake OAuth 1.0a provider on loopback, verified by oauthlib's provider endpoints.

Standard library, oauthlib and cryptography only, nothing from the project: an independent
server for the `oauth1 login` and `oauth1 request` tests. Prints "PORT <n>" once it listens;
exits when its stdin closes or its --lifetime ends. Quiet unless FAKE_OAUTH_DEBUG=1.

Every signed request goes through oauthlib 3.3.1's RequestTokenEndpoint, AuthorizationEndpoint,
AccessTokenEndpoint and ResourceEndpoint (SignatureOnlyEndpoint for one-legged requests) with
the Validator below: consumer and tokens in memory, nonces never reused, timestamps within
600 s, signature methods from --methods. The URL oauthlib verifies against is the one the
client really used: "http://" + Host header + raw path and query (or --public-url's origin).
Protocol parameters may come in the Authorization header, the query or a form body, from one
source only (RFC 5849 3.5).

What oauthlib does not do, this server does around it: the realm (oauthlib drops it from the
base string and its realm checks are about scopes, so they are all permissive here and
--realm compares the header's realm itself), oauth_body_hash (signed like any oauth_
parameter by oauthlib, the hash itself checked here), required headers, the authorize
page's extra parameters, and the error bodies (oauthlib only says valid or not; the reason is
worked out afterwards from its own checks and the validator's log). oauthlib's own rules stay:
oauth_nonce and oauth_timestamp (10 digits) are required with PLAINTEXT too, and a realm in
the query or body is an ordinary parameter. Its parser refuses a query or form body with
bytes such as "[" or "|" unencoded; they are percent-encoded before oauthlib sees them, which
leaves the decoded parameters, and so the base string, unchanged.

Flags, and the real providers they model:
  --consumer-key K --consumer-secret S   the one consumer (test-consumer-key / test-consumer-secret)
  --access-token T --access-token-secret S
                         an access token that exists from the start, as one made in a
                         provider's UI (NetSuite TBA, WooCommerce keys, Trello tokens)
  --methods M,M          allowed signature methods (HMAC-SHA1; RSA-SHA1 as well when
                         --rsa-public-key is given and --methods is not)
  --rsa-public-key PEM   the consumer's RSA public key (or certificate)
  --realm R              the Authorization header's realm must be R      NetSuite (HMAC-SHA256 + realm = account id)
  --problem-reporting    bodies "oauth_problem=..&oauth_signature_base_string=.."  Jira / Atlassian (RSA-SHA1)
  --flickr-debug         bodies "oauth_problem=..&debug_sbs=<base string, raw>"     Flickr
  --one-legged           resource requests may omit oauth_token (key "secret&") WooCommerce (HMAC in the query)
  --mediawiki            /w/index.php?title=Special:OAuth/initiate and ...token (the title signed), and
                         /wiki/Special:OAuth/authorize requiring oauth_consumer_key       MediaWiki
  --etrade               the authorize page at /e/t/etws/authorize?key=CONSUMER_KEY&token=T  E*TRADE
  --empty-token          two-legged resource requests must send oauth_token="" (key "secret&"); none is
                         parameter_absent                                  Schoology (realm "Schoology API")
  --body-hash sha1|sha256  every non-form resource request carries oauth_body_hash
                         = base64(hash(body)), the empty body included    Mastercard (RSA-SHA256 + sha256, empty POST)
                         (form-encoded ones must not: the draft's rule)
  --require-header NAME  (repeatable) resource requests without it: 403  Discogs (PLAINTEXT + User-Agent)
  --authorize-params a,b the authorize page wants these in its query     Trello (name,scope,expiration), SmugMug
  --public-url URL       base string from this origin (and path prefix), not the Host seen: behind a proxy

Endpoints:
  POST|GET /oauth/request_token  oauth_callback required ("oob" or an http(s) loopback URL) ->
           oauth_token=..&oauth_token_secret=..&oauth_callback_confirmed=true
  GET /oauth/authorize?oauth_token=T (or /oauth/authenticate)  the user's approval, no login:
           oob -> 200 HTML page with the verifier (also a plain line "verifier: V"); otherwise
           302 to callback?oauth_token=T&oauth_verifier=V; an unknown token -> 400
  POST|GET /oauth/access_token  -> oauth_token=..&oauth_token_secret=..&user_id=..&screen_name=..
  any method /api/...   200 JSON echo {"method", "path", "query": [[k, v]], "form": [[k, v]] or null,
           "body_length", "body", "content_type", "user_agent", "token", "consumer_key",
           "signature_method", "signature_type", "realm"} (oauth_* parameters left out of
           query and form); /api/status/NNN answers NNN {"error": "asked for NNN"} once verified;
           a refusal under /api/flickr-json/ has Flickr's JSON body whatever the flags:
           {"stat": "fail", "code": 96, "message": "Invalid signature", "debug_sbs": base string}
  GET /_control/last_verifier    {"oauth_token", "verifier"} (404 before any approval)
  GET /redirect?to=URL&status=N  a redirect to URL (307 by default), as providers answer a moved resource
  GET /_control/stats            {"verified", "rejected", "requests": [{"method", "path", "status",
           "signature_method", "realm", "body_hash": bool, "token", "problem"}]}
  POST /_control/reset           clears stats, nonces and the tokens issued so far

Failures: 400 for malformed requests (parameter_absent, parameter_rejected, version_rejected,
signature_method_rejected), 401 otherwise (signature_invalid, nonce_used, timestamp_refused,
consumer_key_unknown, token_rejected, token_used, verifier_invalid; a realm that is missing
or wrong, a body hash that does not match), 403 for a missing required header. Bodies: JSON
{"error": problem, "detail": text} by default, or the two formats above; the base string
in them is computed with oauthlib's collect_parameters, normalize_parameters, base_string_uri
and signature_base_string from the request as this server received it.
"""
import argparse
import base64
import hashlib
import json
import os
import re
import sys
import threading
import time
import traceback
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

from oauthlib import oauth1
from oauthlib.common import safe_string_equals
from oauthlib.oauth1.rfc5849 import errors as oauth_errors
from oauthlib.oauth1.rfc5849 import signature as oauth_sig
from oauthlib.oauth1.rfc5849 import utils as oauth_utils

from peer_server import add_common_arguments, read_body, serve, split_list

DEBUG = os.environ.get("FAKE_OAUTH_DEBUG") == "1"
METHODS = ["HMAC-SHA1", "HMAC-SHA256", "HMAC-SHA512", "RSA-SHA1", "RSA-SHA256", "RSA-SHA512", "PLAINTEXT"]
RSA_METHODS = {"RSA-SHA1", "RSA-SHA256", "RSA-SHA512"}
FORM = "application/x-www-form-urlencoded"
USER_ID = "12345"
SCREEN_NAME = "fake_user"
TIMESTAMP_WINDOW = 600
LOOPBACK = {"127.0.0.1", "localhost", "::1"}

# problem -> HTTP status (OAuth Problem Reporting names)
STATUS = {"parameter_absent": 400, "parameter_rejected": 400, "version_rejected": 400,
          "signature_method_rejected": 400}


def debug(text):
    if DEBUG:
        sys.stderr.write("fake_oauth_provider: %s\n" % text)


class Problem(Exception):
    """Why a request is refused: an OAuth Problem Reporting name plus details."""

    def __init__(self, problem, detail, status=None, absent=(), rejected=(), extra=()):
        super().__init__(detail)
        self.problem, self.detail = problem, detail
        self.status = status or STATUS.get(problem, 401)
        self.absent, self.rejected, self.extra = list(absent), list(rejected), list(extra)


# --- state ----------------------------------------------------------------------------------
class State:
    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        self.request_tokens = {}  # token -> {"secret", "client_key", "callback", "verifier"}
        self.used_request_tokens = set()
        self.access_tokens = {self.args.access_token: {"secret": self.args.access_token_secret,
                                                       "client_key": self.args.consumer_key}}
        self.nonces = set()
        self.last_verifier = None
        self.stats = {"verified": 0, "rejected": 0, "requests": []}


STATE = None


# --- oauthlib's validator -------------------------------------------------------------------
class Validator(oauth1.RequestValidator):
    """Everything oauthlib asks a provider, answered from STATE. Format checks are relaxed
    (any printable ASCII, 1-256 characters); realm checks all pass (see --realm)."""

    safe_characters = set(chr(c) for c in range(0x21, 0x7F))
    client_key_length = request_token_length = access_token_length = (1, 256)
    nonce_length = verifier_length = (1, 256)
    timestamp_lifetime = TIMESTAMP_WINDOW
    enforce_ssl = False
    realms = []
    dummy_client = "dummy-client"
    dummy_request_token = "dummy-request-token"
    dummy_access_token = "dummy-access-token"

    def __init__(self, args, rsa_key):
        super().__init__()
        self.args, self.rsa_key = args, rsa_key

    @property
    def allowed_signature_methods(self):
        return self.args.methods

    def check_realms(self, realms):
        return True

    # secrets and keys
    def get_client_secret(self, client_key, request):
        return self.args.consumer_secret if client_key == self.args.consumer_key else "dummy"

    def get_rsa_key(self, client_key, request):
        return self.rsa_key

    def get_request_token_secret(self, client_key, token, request):
        with STATE.lock:
            entry = STATE.request_tokens.get(token)
        return entry["secret"] if entry and entry["client_key"] == client_key else "dummy"

    def get_access_token_secret(self, client_key, token, request):
        with STATE.lock:
            entry = STATE.access_tokens.get(token)
        return entry["secret"] if entry and entry["client_key"] == client_key else "dummy"

    # realms: permissive, the --realm check is done on the header by the handler
    def get_default_realms(self, client_key, request):
        return []

    def get_realms(self, token, request):
        return []

    def validate_requested_realms(self, client_key, realms, request):
        return True

    def validate_realms(self, client_key, token, request, uri=None, realms=None):
        return True

    def verify_realms(self, token, realms, request):
        return True

    # clients, tokens, verifiers
    def validate_client_key(self, client_key, request):
        return client_key == self.args.consumer_key

    def validate_request_token(self, client_key, token, request):
        with STATE.lock:
            entry = STATE.request_tokens.get(token)
            if entry is None and token in STATE.used_request_tokens:
                request.problem = Problem("token_used", "the request token was already exchanged")
        return bool(entry) and entry["client_key"] == client_key

    def validate_access_token(self, client_key, token, request):
        with STATE.lock:
            entry = STATE.access_tokens.get(token)
        return bool(entry) and entry["client_key"] == client_key

    def validate_timestamp_and_nonce(self, client_key, timestamp, nonce, request,
                                     request_token=None, access_token=None):
        # oauthlib has already checked the timestamp against timestamp_lifetime
        key = (client_key, timestamp, nonce, request_token or access_token)
        with STATE.lock:
            if key in STATE.nonces:
                request.problem = Problem("nonce_used", "oauth_nonce %r was already used" % nonce)
                return False
            STATE.nonces.add(key)
        return True

    def validate_redirect_uri(self, client_key, redirect_uri, request):
        if redirect_uri == "oob":
            return True
        parts = urlsplit(redirect_uri)
        return parts.scheme in ("http", "https") and (parts.hostname or "") in LOOPBACK

    def validate_verifier(self, client_key, token, verifier, request):
        with STATE.lock:
            entry = STATE.request_tokens.get(token)
        return bool(entry and entry["verifier"]) and safe_string_equals(verifier, entry["verifier"])

    def verify_request_token(self, token, request):
        with STATE.lock:
            return token in STATE.request_tokens

    def get_redirect_uri(self, token, request):
        with STATE.lock:
            return STATE.request_tokens[token]["callback"]

    # saving
    def save_request_token(self, token, request):
        with STATE.lock:
            STATE.request_tokens[token["oauth_token"]] = {
                "secret": token["oauth_token_secret"], "client_key": request.client_key,
                "callback": request.redirect_uri, "verifier": None}

    def save_verifier(self, token, verifier, request):
        with STATE.lock:
            STATE.request_tokens[token]["verifier"] = verifier["oauth_verifier"]
            STATE.last_verifier = {"oauth_token": token, "verifier": verifier["oauth_verifier"]}

    def save_access_token(self, token, request):
        with STATE.lock:
            STATE.access_tokens[token["oauth_token"]] = {"secret": token["oauth_token_secret"],
                                                         "client_key": request.client_key}

    def invalidate_request_token(self, client_key, request_token, request):
        with STATE.lock:
            STATE.request_tokens.pop(request_token, None)
            STATE.used_request_tokens.add(request_token)


def strictly_urlencoded(raw):
    """`raw` (bytes of a query or form body) with every byte oauthlib's urldecode refuses
    ("[", "]", "|", non-ASCII, a "%" without two hex digits, ...) percent-encoded: the decoded
    parameters, and so the base string, stay the same."""
    raw = re.sub(rb"%(?![0-9A-Fa-f]{2})", b"%25", raw)
    return quote(raw, safe="=&;:%+~,*@!()/?'$")


# --- reasons ----------------------------------------------------------------------------------
MANDATORY = ["oauth_consumer_key", "oauth_signature_method", "oauth_signature", "oauth_timestamp", "oauth_nonce"]


def problem_from_error(error, request):
    """Maps one of oauthlib's OAuth1Error (its descriptions in 3.3.1) to a Problem."""
    text = error.description
    if isinstance(text, tuple):  # oauthlib 3.3.1 passes one description as a (format, value) tuple
        text = text[0] % text[1:]
    oauth = getattr(request, "oauth_params", None) or {}
    if isinstance(error, oauth_errors.InvalidSignatureMethodError):
        return Problem("signature_method_rejected", text,
                       extra=[("oauth_acceptable_signature_methods", "&".join(STATE.args.methods))])
    if text.startswith("Missing mandatory OAuth parameters"):
        absent = [n for n in MANDATORY if not oauth.get(n)] if request is not None else MANDATORY
        return Problem("parameter_absent", text, absent=absent)
    if text.startswith("Timestamp given is invalid"):
        now = int(time.time())
        return Problem("timestamp_refused", text,
                       extra=[("oauth_acceptable_timestamps", "%d-%d" % (now - TIMESTAMP_WINDOW, now + TIMESTAMP_WINDOW))])
    if text.startswith("Invalid OAuth version"):
        return Problem("version_rejected", text, extra=[("oauth_acceptable_versions", "1.0-1.0")])
    for start, absent in (("Missing callback", "oauth_callback"), ("Missing resource owner", "oauth_token"),
                          ("Missing verifier", "oauth_verifier")):
        if text.startswith(start):
            return Problem("parameter_absent", text, absent=[absent])
    for start, rejected in (("Invalid timestamp", "oauth_timestamp"), ("Timestamp must", "oauth_timestamp"),
                            ("Invalid client key", "oauth_consumer_key"), ("Invalid nonce", "oauth_nonce"),
                            ("Invalid realm", "realm")):
        if text.startswith(start):
            return Problem("parameter_rejected", text, rejected=[rejected])
    if text.startswith("Invalid resource owner key"):
        return Problem("token_rejected", text)
    if text.startswith("Invalid verifier"):
        return Problem("verifier_invalid", text)
    return Problem("parameter_rejected", text)  # duplicated parameters, more than one source, ...


def problem_from_log(request, default="signature_invalid"):
    """Why oauthlib said "not valid" without raising: the validator's note or its log."""
    noted = getattr(request, "problem", None)
    if noted is not None:
        return noted
    log = request.validator_log
    if log.get("client") is False:
        return Problem("consumer_key_unknown", "unknown oauth_consumer_key %r" % request.oauth_params.get("oauth_consumer_key"))
    if log.get("callback") is False:
        return Problem("parameter_rejected", "oauth_callback must be oob or a loopback http(s) URL",
                       status=401, rejected=["oauth_callback"])
    if log.get("resource_owner") is False:
        return Problem("token_rejected", "unknown or unusable oauth_token")
    if log.get("verifier") is False:
        return Problem("verifier_invalid", "wrong oauth_verifier")
    return Problem(default, "invalid signature")


# --- the handler ------------------------------------------------------------------------------
class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server_version = "fake-oauth-provider"
    sys_version = ""

    def log_message(self, fmt, *args):
        debug(fmt % args)

    def read_body(self):
        return read_body(self)

    def reply(self, status, body=b"", content_type="text/plain; charset=utf-8", headers=()):
        if isinstance(body, str):
            body = body.encode("utf-8")
        # Recorded before a byte is sent: a client that has the answer finds it in the stats.
        if self.record is not None:
            self.record["status"] = status
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if status not in (204, 304):
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if status not in (204, 304) and self.command != "HEAD":
            self.wfile.write(body)

    def reply_json(self, status, obj):
        self.reply(status, json.dumps(obj), "application/json")

    def handle_any(self):
        self.record = None
        try:
            self.dispatch()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        except Exception:  # a bug here: say so loudly, answer 500
            traceback.print_exc()
            self.close_connection = True
            try:
                self.reply(500, "fake_oauth_provider internal error")
            except OSError:
                pass

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = handle_any

    # -- the request as received --
    def dispatch(self):
        target = self.path
        if target.startswith(("http://", "https://")):  # absolute-form (a proxy's request)
            parts = urlsplit(target)
            target = parts.path + ("?" + parts.query if parts.query else "")
        self.target = target
        path, _, self.query = target.partition("?")
        # one handler serves every request of a keep-alive connection: nothing carries over
        self.uri, self.form_text, self.oauth_headers, self.oauth_params, self.realm = None, None, {}, {}, None
        self.raw_body = self.read_body()
        if path.startswith("/_control/"):
            return self.control(path)
        self.record = {"method": self.command, "path": path, "status": None, "signature_method": None,
                       "realm": None, "body_hash": False, "token": None, "problem": None}
        with STATE.lock:
            STATE.stats["requests"].append(self.record)
        if STATE.args.mediawiki and path == "/w/index.php":
            # MediaWiki's title-style endpoints; the title stays in the URL oauthlib verifies.
            title = dict(parse_qsl(self.query)).get("title", "")
            path = {"Special:OAuth/initiate": "/oauth/request_token", "Special:OAuth/token": "/oauth/access_token"}.get(title, path)
        if STATE.args.mediawiki and path == "/wiki/Special:OAuth/authorize":
            # Special:OAuth/authorize takes the consumer key beside the request token.
            if dict(parse_qsl(self.query)).get("oauth_consumer_key") != STATE.args.consumer_key:
                self.record["problem"] = "authorize_params_missing"
                return self.reply(400, "Special:OAuth/authorize needs oauth_consumer_key\n")
            return self.authorize()
        if STATE.args.etrade and path == "/e/t/etws/authorize":
            # E*TRADE's form: key (the consumer key) and token (the request token).
            fields = dict(parse_qsl(self.query))
            if fields.get("key") != STATE.args.consumer_key or "oauth_token" in fields:
                self.record["problem"] = "authorize_params_missing"
                return self.reply(400, "The authorize page takes key=CONSUMER_KEY&token=REQUEST_TOKEN\n")
            self.query = urlencode([("oauth_token", fields.get("token", ""))])
            return self.authorize()
        if path in ("/oauth/authorize", "/oauth/authenticate"):
            return self.authorize()
        if path == "/redirect":
            # As providers answer a moved resource (http to https, a renamed path): no check
            # here, the client must sign again for where it goes (and not at all for another origin).
            params = dict(parse_qsl(self.query))
            status = int(params.get("status", "307"))
            self.record["status"] = status
            self.send_response(status)
            self.send_header("Location", params.get("to", "/"))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.record["authorization"] = "Authorization" in self.headers
        if path in ("/oauth/request_token", "/oauth/access_token", "/api") or path.startswith("/api/"):
            missing = [name for name in STATE.args.require_header if not self.headers.get(name)]
            if missing and path.startswith("/api"):
                self.record["problem"] = "header_missing"
                with STATE.lock:
                    STATE.stats["rejected"] += 1
                return self.reply_json(403, {"message": "Requests must carry a %s header." % missing[0]})
            try:
                self.prepare_oauth()
                if path == "/oauth/request_token":
                    return self.request_token()
                if path == "/oauth/access_token":
                    return self.access_token()
                return self.resource(path)
            except Problem as problem:
                return self.refuse(problem)
        self.reply_json(404, {"error": "no such endpoint: %s" % path})

    def prepare_oauth(self):
        """What oauthlib is given: the URL the client signed, the form body, the OAuth header."""
        host = self.headers.get("Host") or "%s:%d" % self.server.server_address[:2]
        path, _, query = self.target.partition("?")
        target = path + ("?" + strictly_urlencoded(query.encode("latin-1")) if query else "")
        if STATE.args.public_url:
            public = urlsplit(STATE.args.public_url)
            self.uri = "%s://%s%s%s" % (public.scheme, public.netloc, public.path.rstrip("/"), target)
        else:
            self.uri = "http://" + host + target
        self.content_type = self.headers.get("Content-Type")
        self.is_form = FORM in (self.content_type or "").lower()
        self.form_text = strictly_urlencoded(self.raw_body) if self.is_form else None
        header = self.headers.get("Authorization") or ""
        self.oauth_headers = {"Content-Type": self.content_type} if self.content_type else {}
        self.realm = None
        if header[:6].lower() == "oauth ":
            self.oauth_headers["Authorization"] = header
            try:
                pairs = oauth_utils.parse_authorization_header(header)
            except ValueError:
                raise Problem("parameter_rejected", "malformed OAuth Authorization header")
            self.realm = dict(pairs).get("realm")
        try:  # every parameter, as oauthlib collects them
            self.oauth_params = dict((k, v) for k, v in oauth_sig.collect_parameters(
                uri_query=urlsplit(self.uri).query, body=self.form_text, headers=self.oauth_headers,
                exclude_oauth_signature=False) if k.startswith("oauth_"))
        except ValueError as error:  # oauthlib's urldecode refuses what is not strictly urlencoded
            raise Problem("parameter_rejected", "oauthlib cannot parse the request: %s" % error)
        self.record["signature_method"] = self.oauth_params.get("oauth_signature_method")
        self.record["realm"] = self.realm
        self.record["body_hash"] = "oauth_body_hash" in self.oauth_params
        self.record["token"] = self.oauth_params.get("oauth_token")
        if STATE.args.realm is not None:
            if self.realm is None:
                raise Problem("parameter_absent", "the Authorization header must carry realm=%r" % STATE.args.realm,
                              status=401, absent=["realm"])
            if self.realm != STATE.args.realm:
                raise Problem("parameter_rejected", "realm %r is not %r" % (self.realm, STATE.args.realm),
                              status=401, rejected=["realm"])

    def base_string(self):
        """The signature base string of the request as received, by oauthlib's functions."""
        try:
            params = oauth_sig.collect_parameters(uri_query=urlsplit(self.uri).query, body=self.form_text,
                                                  headers=self.oauth_headers, exclude_oauth_signature=True)
            return oauth_sig.signature_base_string(self.command, oauth_sig.base_string_uri(self.uri),
                                                   oauth_sig.normalize_parameters(params))
        except (ValueError, AttributeError):
            return None

    def oauthlib_args(self):
        return dict(uri=self.uri, http_method=self.command, body=self.form_text or "", headers=self.oauth_headers)

    def refuse(self, problem):
        with STATE.lock:
            STATE.stats["rejected"] += 1
        self.record["problem"] = problem.problem
        base = self.base_string() if self.uri else None
        debug("%s %s -> %d %s (%s)\n  base string: %s" % (self.command, self.target, problem.status,
                                                         problem.problem, problem.detail, base))
        headers = []
        if problem.status == 401:
            realm = STATE.args.realm or STATE.args.public_url or "http://" + (self.headers.get("Host") or "")
            headers.append(("WWW-Authenticate", 'OAuth realm="%s", oauth_problem="%s"' % (realm, problem.problem)))
        if self.target.startswith("/api/flickr-json/"):
            # Flickr's answer with format=json: its own code and message, the base string as debug_sbs.
            invalid = problem.problem == "signature_invalid"
            body = {"stat": "fail", "code": 96 if invalid else 100,
                    "message": "Invalid signature" if invalid else problem.detail}
            if base:
                body["debug_sbs"] = base
            return self.reply(problem.status, json.dumps(body), "application/json", headers)
        if STATE.args.flickr_debug:
            body = "oauth_problem=" + problem.problem + ("&debug_sbs=" + base if base else "")
            return self.reply(problem.status, body, "text/plain; charset=utf-8", headers)
        if STATE.args.problem_reporting:
            fields = [("oauth_problem", problem.problem)]
            if problem.absent:
                fields.append(("oauth_parameters_absent", "&".join(problem.absent)))
            if problem.rejected:
                fields.append(("oauth_parameters_rejected", "&".join(problem.rejected)))
            fields += problem.extra
            for name in ("oauth_signature", "oauth_signature_method"):
                if self.oauth_params.get(name):
                    fields.append((name, self.oauth_params[name]))
            if base:
                fields.append(("oauth_signature_base_string", base))
            fields.append(("oauth_problem_advice", problem.detail))
            return self.reply(problem.status, urlencode(fields, quote_via=quote, safe=""), FORM, headers)
        body = {"error": problem.problem, "detail": problem.detail}
        if problem.absent:
            body["parameters_absent"] = problem.absent
        if problem.rejected:
            body["parameters_rejected"] = problem.rejected
        self.reply(problem.status, json.dumps(body), "application/json", headers)

    def verified(self):
        with STATE.lock:
            STATE.stats["verified"] += 1

    def check_method(self, allowed):
        if self.command not in allowed:
            self.record["problem"] = "method_not_allowed"
            self.reply_json(405, {"error": "use %s" % " or ".join(allowed)})
            return False
        return True

    # -- the three legs --
    def request_token(self):
        if not self.check_method(("POST", "GET")):
            return
        endpoint = ENDPOINTS["request_token"]
        request = self.oauthlib_request(endpoint)
        try:
            valid, request = endpoint.validate_request_token_request(request)
        except oauth_errors.OAuth1Error as error:
            raise problem_from_error(error, request)
        if not valid:
            raise problem_from_log(request)
        body = endpoint.create_request_token(request, {})
        self.verified()
        self.reply(200, body, FORM)

    def access_token(self):
        if not self.check_method(("POST", "GET")):
            return
        endpoint = ENDPOINTS["access_token"]
        request = self.oauthlib_request(endpoint)
        try:
            valid, request = endpoint.validate_access_token_request(request)
        except oauth_errors.OAuth1Error as error:
            raise problem_from_error(error, request)
        if not valid:
            raise problem_from_log(request)
        # oauthlib adds oauth_authorized_realms (empty here): left out, as most providers do
        body = endpoint.create_access_token(request, {"user_id": USER_ID, "screen_name": SCREEN_NAME})
        body = urlencode([(k, v) for k, v in parse_qsl(body, keep_blank_values=True)
                          if k != "oauth_authorized_realms"])
        STATE.validator.invalidate_request_token(request.client_key, request.resource_owner_key, request)
        self.verified()
        self.reply(200, body, FORM)

    def oauthlib_request(self, endpoint):
        """oauthlib's parse of the request (its _create_request), for the validate_* methods."""
        args = self.oauthlib_args()
        try:
            return endpoint._create_request(args["uri"], args["http_method"], args["body"], args["headers"])
        except oauth_errors.OAuth1Error as error:
            raise problem_from_error(error, None)
        except ValueError as error:
            raise Problem("parameter_rejected", "oauthlib cannot parse the request: %s" % error)

    def authorize(self):
        if not self.check_method(("GET",)):
            return
        query = parse_qsl(self.query, keep_blank_values=True)
        names = {k for k, _ in query}
        missing = [n for n in STATE.args.authorize_params if n not in names]
        if missing:
            self.record["problem"] = "authorize_params_missing"
            return self.reply(400, "The authorize page needs these query parameters: %s\n" % ", ".join(missing))
        host = self.headers.get("Host") or "%s:%d" % self.server.server_address[:2]
        try:
            path = self.target.partition("?")[0]
            headers, body, status = ENDPOINTS["authorization"].create_authorization_response(
                "http://%s%s?%s" % (host, path, strictly_urlencoded(self.query.encode("latin-1"))), http_method="GET")
        except (oauth_errors.OAuth1Error, ValueError) as error:
            self.record["problem"] = "token_rejected"
            return self.reply(400, "Unknown or already used oauth_token (%s)\n" % getattr(error, "description", error))
        if status == 302:
            return self.reply(302, "Redirecting to %s\n" % headers["Location"], headers=[("Location", headers["Location"])])
        fields = dict(parse_qsl(body))
        page = ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Application authorized</title></head>\n"
                "<body><p>You have authorized the application. Enter this verification code in it:</p>\n"
                "<p><code id=\"oauth_verifier\">%s</code></p>\n<pre>\nverifier: %s\noauth_token: %s\n</pre>\n</body></html>\n"
                % (fields["oauth_verifier"], fields["oauth_verifier"], fields["oauth_token"]))
        self.reply(200, page, "text/html; charset=utf-8")

    # -- protected resources --
    def resource(self, path):
        args = self.oauthlib_args()
        one_legged = STATE.args.one_legged and "oauth_token" not in self.oauth_params
        if STATE.args.empty_token:
            # Schoology: a two-legged request carries oauth_token="", signed with the key "secret&";
            # oauthlib's SignatureOnlyEndpoint checks it, the empty token in the base string.
            if self.oauth_params.get("oauth_token") is None:
                raise Problem("parameter_absent", "two-legged requests carry oauth_token=\"\"", absent=["oauth_token"])
            one_legged = self.oauth_params.get("oauth_token") == ""
        if one_legged:
            endpoint = ENDPOINTS["signature_only"]
            valid, request = endpoint.validate_request(**args)
        else:
            endpoint = ENDPOINTS["resource"]
            valid, request = endpoint.validate_protected_resource_request(**args)
        if not valid:
            raise self.diagnose(endpoint, request, args)
        self.check_body_hash()
        self.verified()
        status_path = path[len("/api/status/"):] if path.startswith("/api/status/") else None
        if status_path and status_path.isdigit() and 200 <= int(status_path) <= 599:
            code = int(status_path)
            return self.reply_json(code, {"error": "asked for %d" % code})
        strict_query = urlsplit(self.uri).query
        query = [[k, v] for k, v in parse_qsl(strict_query, keep_blank_values=True)
                 if not k.startswith("oauth_")]
        form = None
        if self.is_form:
            form = [[k, v] for k, v in parse_qsl(self.form_text, keep_blank_values=True)
                    if not k.startswith("oauth_")]
        signature_type = ("header" if "Authorization" in self.oauth_headers else
                          "query" if any(k.startswith("oauth_") for k, _ in parse_qsl(strict_query)) else "form")
        self.reply_json(200, {
            "method": self.command, "path": path, "query": query, "form": form,
            "body_length": len(self.raw_body), "body": self.raw_body.decode("utf-8", "replace"),
            "content_type": self.content_type, "user_agent": self.headers.get("User-Agent"),
            "token": None if one_legged else request.resource_owner_key,
            "consumer_key": request.client_key, "signature_method": request.signature_method,
            "signature_type": signature_type, "realm": self.realm})

    def diagnose(self, endpoint, request, args):
        """Why validate_protected_resource_request / validate_request said no: it swallows
        oauthlib's errors, so its own parse and checks are run again (they have no side effects)."""
        try:
            if request is None:
                endpoint._create_request(args["uri"], args["http_method"], args["body"], args["headers"])
                return Problem("parameter_rejected", "oauthlib could not parse the request")
            endpoint._check_transport_security(request)
            endpoint._check_mandatory_parameters(request)
        except oauth_errors.OAuth1Error as error:
            return problem_from_error(error, request)
        if endpoint is ENDPOINTS["resource"] and not request.resource_owner_key:
            return Problem("parameter_absent", "oauth_token is required", status=401, absent=["oauth_token"])
        return problem_from_log(request)

    def check_body_hash(self):
        algorithm = STATE.args.body_hash
        sent = self.oauth_params.get("oauth_body_hash")
        if algorithm is None:
            return
        if self.is_form:
            if sent is not None:
                raise Problem("parameter_rejected", "form-encoded requests must not carry oauth_body_hash",
                              rejected=["oauth_body_hash"])
            return
        if sent is None:
            raise Problem("parameter_absent", "oauth_body_hash (%s) is required" % algorithm, absent=["oauth_body_hash"])
        expected = base64.b64encode(hashlib.new(algorithm, self.raw_body).digest()).decode("ascii")
        if not safe_string_equals(sent, expected):
            raise Problem("parameter_rejected", "oauth_body_hash is not base64(%s(body)) = %s" % (algorithm, expected),
                          status=401, rejected=["oauth_body_hash"])

    # -- control --
    def control(self, path):
        with STATE.lock:
            if path == "/_control/stats":
                return self.reply_json(200, {"verified": STATE.stats["verified"], "rejected": STATE.stats["rejected"],
                                             "requests": list(STATE.stats["requests"])})
            if path == "/_control/last_verifier":
                if STATE.last_verifier is None:
                    return self.reply_json(404, {"error": "no request token approved yet"})
                return self.reply_json(200, STATE.last_verifier)
            if path == "/_control/reset" and self.command == "POST":
                STATE.reset()
                return self.reply_json(200, {"ok": True})
        self.reply_json(404, {"error": "unknown control endpoint"})


# --- set-up -----------------------------------------------------------------------------------
def load_rsa_key(path):
    with open(path, "rb") as handle:
        data = handle.read()
    if b"BEGIN CERTIFICATE" in data:  # Jira-style application links hand out certificates too
        from cryptography import x509
        from cryptography.hazmat.primitives import serialization
        data = x509.load_pem_x509_certificate(data).public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    return data.decode("ascii")



def main():
    global STATE
    parser = argparse.ArgumentParser(description="Fake OAuth 1.0a provider verified by oauthlib's endpoints")
    add_common_arguments(parser, consumer=('test-consumer-key', 'test-consumer-secret'), token=('test-access-token', 'test-access-token-secret'))
    parser.add_argument("--rsa-public-key", metavar="PEM_FILE")
    parser.add_argument("--methods", help="comma list of %s" % ", ".join(METHODS))
    parser.add_argument("--realm")
    parser.add_argument("--body-hash", choices=["sha1", "sha256"])
    parser.add_argument("--one-legged", action="store_true")
    parser.add_argument("--empty-token", action="store_true")
    parser.add_argument("--mediawiki", action="store_true")
    parser.add_argument("--etrade", action="store_true")
    errors_format = parser.add_mutually_exclusive_group()
    errors_format.add_argument("--problem-reporting", action="store_true")
    errors_format.add_argument("--flickr-debug", action="store_true")
    parser.add_argument("--authorize-params", default="")
    parser.add_argument("--require-header", action="append", default=[])
    parser.add_argument("--public-url")
    args = parser.parse_args()

    if args.methods is None:
        args.methods = "HMAC-SHA1" + (",RSA-SHA1" if args.rsa_public_key else "")
    args.methods = split_list(args.methods)
    unknown = [m for m in args.methods if m not in METHODS]
    if unknown or not args.methods:
        parser.error("unknown signature methods %s; use %s" % (", ".join(unknown), ", ".join(METHODS)))
    if RSA_METHODS & set(args.methods) and not args.rsa_public_key:
        parser.error("RSA methods need --rsa-public-key")
    args.authorize_params = split_list(args.authorize_params)
    if args.public_url and urlsplit(args.public_url).scheme not in ("http", "https"):
        parser.error("--public-url must be an http(s) URL")

    STATE = State(args)
    rsa_key = load_rsa_key(args.rsa_public_key) if args.rsa_public_key else None
    STATE.validator = Validator(args, rsa_key)
    ENDPOINTS.update({
        "request_token": oauth1.RequestTokenEndpoint(STATE.validator),
        "authorization": oauth1.AuthorizationEndpoint(STATE.validator),
        "access_token": oauth1.AccessTokenEndpoint(STATE.validator),
        "resource": oauth1.ResourceEndpoint(STATE.validator),
        "signature_only": oauth1.SignatureOnlyEndpoint(STATE.validator),
    })
    serve(Handler, args.host, args.lifetime)


ENDPOINTS = {}

if __name__ == "__main__":
    main()
