"""A fake X/Twitter API on 127.0.0.1 for the XAPI tests: OAuth 1.0a verified by oauthlib.

Standard library plus oauthlib only, and nothing from the project itself: it is an independent
verifier of what the Swift client sends. Prints "PORT <n>" once it listens; exits when its
stdin closes (the test process is gone) or its --lifetime ends. Quiet unless FAKE_X_DEBUG=1.

Every request to /1.1/*, /2/*, /oauth/request_token and /oauth/access_token is checked with
oauthlib's own functions (collect_parameters, normalize_parameters, base_string_uri,
signature_base_string, _sign_hmac / sign_plaintext) against the URL the client really used:
"http://" + Host header + raw path and query. Checks and X's answers, in order:
  no credentials            v1.1/oauth 400 code 215, v2 401 Unauthorized problem
  malformed / unknown consumer key / unsupported method
                            v1.1/oauth 401 code 32, v2 401 Unauthorized
  unknown token             v1.1/oauth 401 code 89, v2 401 Unauthorized (the secret is needed to verify)
  bad signature             code 32 / Unauthorized
  revoked token             code 89 / Unauthorized
  timestamp > 300 s off     401 code 135 on every path (server clock = real time + skew)
  nonce reused              code 32 / Unauthorized
  request_token without oauth_callback: code 32; access_token with a wrong verifier: 401
  text/plain "Error processing your OAuth request: Invalid oauth_verifier parameter".
"Authorization: Bearer <token>" (app-only) works on reads except /2/users/me and the home
timelines (403 unsupported-authentication); on writes it gets 403 too.

Control API (no auth, JSON):
  POST /_control/script      {"path_prefix": "/2/users/1001/tweets", "responses": [action, ...]}
       actions, one per matching request after auth: {"status": 429, "reset_in": s},
       {"status": 500|502|503 (any), "body"?: str, "content_type"?: str, "headers"?: {}},
       {"delay": s} (alone: then the normal answer), {"truncate": true}, {"invalid_json": true},
       {"html": true}, {"reset_connection": true} (before any answer), {"reset_mid_body": true}
       (headers and half the body, then a reset); a 429 with "bare": true has no x-rate-limit-*;
       every other scripted status of a rate-limited endpoint carries the window's x-rate-limit-*
       headers, as X sends them on error answers too (remaining > 0, reset = end of the window).
       {"redirect": url-or-path, "status"?: 301|302|303|307|308 (default 307), "keep_query"?: bool}
       is answered at the edge, before authentication, for any path with the prefix (a moved
       endpoint, an old host forwarding to a new one); path prefixes need not be API paths.
  POST /_control/clock       {"skew": seconds}
  POST /_control/revoke      {"token": "..."}
  POST /_control/rate_limit  {"path_prefix": "...", "remaining": n, "reset_in"?: s}
  GET  /_control/stats       {"verified", "rejected", "reasons", "bearer", "requests": [...]}
       verified: OAuth 1.0a requests that passed every check; rejected: every auth failure, by
       reason (bad_signature, unknown_consumer, unknown_token, revoked_token, timestamp_out_of_bounds,
       nonce_reused, missing_auth, bearer_invalid, app_only_forbidden, bad_verifier, ...);
       requests: {"method", "path", "query", "auth": "oauth1"|"bearer"|"none", "status",
       "authorization": whether an Authorization header arrived} (status 0: reset)
  GET  /_control/pin?oauth_token=T   {"pin": "1234567"} (the authorize page shows the same)
  GET  /_control/tweets?user_id=1001 {"ids": [...]} (newest first)
  POST /_control/reset       clears scripts, skew, stats, rate-limit counters, revocations
"""
import argparse
import calendar
import collections
import email.utils
import json
import os
import re
import secrets
import socket
import struct
import sys
import threading
import time
import traceback
from http.server import BaseHTTPRequestHandler
from peer_server import read_body, serve
from urllib.parse import parse_qsl, quote, unquote, urlsplit

from oauthlib.common import Request as OAuthRequest
from oauthlib.common import safe_string_equals
from oauthlib.oauth1.rfc5849 import signature as oauth_sig

DEBUG = os.environ.get("FAKE_X_DEBUG") == "1"

V1_CT = "application/json;charset=utf-8"
V2_CT = "application/json; charset=utf-8"
HTML_CT = "text/html; charset=utf-8"
WINDOW = 900
TIMESTAMP_TOLERANCE = 300
BASE_TIME = calendar.timegm((2024, 5, 1, 12, 0, 0))
FIRST_ID = 1800000000000000000
MAIN_USER = "1001"

USERS = {
    "1001": {"id": "1001", "name": "Swift Fixture", "username": "swift_fixture",
             "created_at": calendar.timegm((2019, 3, 4, 5, 6, 7)), "followers": 42, "following": 7},
    "1002": {"id": "1002", "name": "OAuth Friend", "username": "oauth_friend",
             "created_at": calendar.timegm((2015, 6, 7, 8, 9, 10)), "followers": 1234, "following": 56},
    "1003": {"id": "1003", "name": "Third Party", "username": "third_party",
             "created_at": calendar.timegm((2012, 1, 2, 3, 4, 5)), "followers": 99, "following": 100},
}

# --- bodies, verbatim from X ---------------------------------------------------------------
V2_UNAUTHORIZED = {"title": "Unauthorized", "type": "about:blank", "status": 401, "detail": "Unauthorized"}
V2_FORBIDDEN = {"title": "Forbidden", "type": "about:blank", "status": 403, "detail": "Forbidden"}
V2_TOO_MANY = {"title": "Too Many Requests", "detail": "Too Many Requests", "type": "about:blank", "status": 429}
V2_APP_ONLY = {
    "title": "Unsupported Authentication",
    "detail": "Authenticating with OAuth 2.0 Application-Only is forbidden for this endpoint.  "
              "Supported authentication types are [OAuth 1.0a User Context, OAuth 2.0 User Context].",
    "type": "https://api.twitter.com/2/problems/unsupported-authentication",
    "status": 403,
}
V2_DUPLICATE = {"detail": "You are not allowed to create a Tweet with duplicate content.",
                "type": "about:blank", "title": "Forbidden", "status": 403}
V2_TOO_LONG = {"detail": "Your Tweet text is too long. For more information on how Twitter determines text "
                         "length see https://github.com/twitter/twitter-text.",
               "type": "about:blank", "title": "Forbidden", "status": 403}
V2_JSON_REQUIRED = {"errors": [{"parameters": {}, "message": "Requests with bodies must have content-type of application/json."}],
                    "title": "Invalid Request", "detail": "One or more parameters to your request was invalid.",
                    "type": "https://api.twitter.com/2/problems/invalid-request"}
VERIFIER_ERROR = b"Error processing your OAuth request: Invalid oauth_verifier parameter"
REASONS = {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout"}

NOT_FOUND_HTML = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Twitter / ?</title></head>
<body><div class="errorpage-body-content"><h1>Nothing to see here</h1>
<p>Sorry, that page doesn\u2019t exist! <a href="https://twitter.com/">Back to home</a></p>
<img src="https://abs.twimg.com/errors/logo46x38.png" alt="poodle"></div></body></html>
""".encode("utf-8")

BAD_GATEWAY_HTML = b"""<!DOCTYPE html>
<html><head><title>502 Bad Gateway</title></head>
<body><h1>Bad Gateway</h1><p>The server returned an invalid or incomplete response.</p></body></html>
"""


def v1_errors(code, message):
    return {"errors": [{"code": code, "message": message}]}


def invalid_request(parameter, values, message):
    return {"errors": [{"parameters": {parameter: values}, "message": message}],
            "title": "Invalid Request", "detail": "One or more parameters to your request was invalid.",
            "type": "https://api.twitter.com/2/problems/invalid-request"}


def not_found_error(value, resource_type, parameter, detail):
    return {"value": value, "detail": detail, "title": "Not Found Error", "resource_type": resource_type,
            "parameter": parameter, "resource_id": value,
            "type": "https://api.twitter.com/2/problems/resource-not-found"}


# --- encoding ---------------------------------------------------------------------------------
NON_BMP = re.compile("[\U00010000-\U0010FFFF]")


def _surrogates(match):
    c = ord(match.group()) - 0x10000
    return "\\u%04X\\u%04X" % (0xD800 + (c >> 10), 0xDC00 + (c & 0x3FF))


def dump_json(obj, v1=False):
    # Raw UTF-8 for the BMP, UTF-16 surrogate escapes for the rest (as X does); v1.1 also
    # escapes "/" as "\/". "/" and non-BMP characters can only occur inside JSON strings.
    text = NON_BMP.sub(_surrogates, json.dumps(obj, ensure_ascii=False, separators=(",", ":")))
    if v1:
        text = text.replace("/", "\\/")
    return text.encode("utf-8")


DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def iso_date(ts):
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(int(ts)))


def v1_date(ts):
    t = time.gmtime(int(ts))
    return "%s %s %02d %02d:%02d:%02d +0000 %d" % (DAYS[t.tm_wday], MONTHS[t.tm_mon - 1], t.tm_mday,
                                                   t.tm_hour, t.tm_min, t.tm_sec, t.tm_year)


ISO_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]00:?00)$")


def parse_iso(value):
    m = ISO_RE.match(value or "")
    if not m:
        return None
    return calendar.timegm(tuple(int(m.group(i)) for i in range(1, 7)))


ID_RE = re.compile(r"^[0-9]{1,19}$")


def split_list(value):
    return [v.strip() for v in (value or "").split(",") if v.strip()]


def is_form(headers):
    media = (headers.get("Content-Type") or "").split(";")[0].strip().lower()
    return media == "application/x-www-form-urlencoded"


def media_type(headers):
    return (headers.get("Content-Type") or "").split(";")[0].strip().lower()


# --- fixtures ---------------------------------------------------------------------------------
class Tweet:
    __slots__ = ("id", "text", "author", "created", "metrics")

    def __init__(self, tweet_id, text, author, created, metrics):
        self.id, self.text, self.author, self.created, self.metrics = tweet_id, text, author, created, metrics


LONG_TAIL = ("This sentence is here to make the post longer than one hundred and forty characters, "
             "so v1.1 compatibility mode has to truncate it. And this one makes it a long post, longer than "
             "two hundred and eighty characters: X cuts its `text` short and sends the whole post only in "
             "`note_tweet`, when `tweet.fields` asks for it. THE END.")

# X's limit for the `text` of a long post; the rest is only in `note_tweet`.
TEXT_LIMIT = 280


def short_text(text):
    """A post's `text` as X sends it: a long post (a "note tweet") cut short with an ellipsis."""
    return text if len(text) <= TEXT_LIMIT else text[:TEXT_LIMIT - 1] + "\u2026"


def fixture_text(n, username):
    templates = [
        "Tweet {n} from @{u}: hello world",
        "Caf\u00e9 au lait #{n} \u2014 cr\u00e8me br\u00fbl\u00e9e \u00e9t\u00e9 (@{u})",
        "\u65e5\u672c\u8a9e\u306e\u30c4\u30a4\u30fc\u30c8 {n} \u3067\u3059 @{u}",
        "Launch {n} \U0001F680 to the moon, says @{u}",
        "Fish & chips < 5 + tax, item {n} by @{u}",
        "Swift on Linux, note {n} by @{u}",
        "Long post {n} by @{u}: " + LONG_TAIL,
    ]
    return templates[n % len(templates)].format(n=n, u=username)


def build_tweets(main_count):
    remaining = {"1001": main_count, "1002": 40, "1003": 40}
    produced = {"1001": 0, "1002": 0, "1003": 0}
    pattern = ["1001", "1002", "1001", "1003"]
    tweets, i, slot = [], 0, 0
    while any(remaining.values()):
        author = pattern[slot % len(pattern)]
        slot += 1
        if remaining[author] == 0:
            continue
        remaining[author] -= 1
        produced[author] += 1
        metrics = {"retweet_count": (i * 7) % 13, "reply_count": (i * 3) % 5,
                   "like_count": (i * 11) % 50, "quote_count": i % 3}
        tweets.append(Tweet(FIRST_ID - 1000 * i, fixture_text(produced[author], USERS[author]["username"]),
                            author, BASE_TIME - 60 * i, metrics))
        i += 1
    return tweets


class Resp:
    def __init__(self, status, body=b"", content_type=None, headers=None):
        self.status = status
        self.body = body
        self.headers = list(headers or [])
        if content_type:
            self.headers.insert(0, ("Content-Type", content_type))


def v1_resp(status, obj, headers=None):
    return Resp(status, dump_json(obj, v1=True), V1_CT, headers)


def v2_resp(status, obj, headers=None):
    return Resp(status, dump_json(obj), V2_CT, headers)


def html_resp(status, body):
    return Resp(status, body, HTML_CT)


class Auth:
    def __init__(self, kind, identity=None, user_id=None, token=None):
        self.kind, self.identity, self.user_id, self.token = kind, identity, user_id, token


# --- state ------------------------------------------------------------------------------------
class State:
    def __init__(self, args):
        self.lock = threading.RLock()
        self.args = args
        self.consumers = {args.consumer_key: args.consumer_secret}
        self.access_tokens = {args.access_token: {"secret": args.access_token_secret, "user_id": MAIN_USER}}
        self.request_tokens = {}
        self.nonces = {}
        self.tweets = build_tweets(args.tweets)  # newest first
        self.reset()

    def reset(self):
        with self.lock:
            self.skew = 0.0
            self.scripts = []
            self.counters = {}
            self.overrides = []
            self.revoked = set()
            self.stats = {"verified": 0, "rejected": 0, "reasons": {}, "bearer": 0, "requests": []}

    def now(self):
        return time.time() + self.skew

    def reject(self, reason):
        with self.lock:
            self.stats["rejected"] += 1
            self.stats["reasons"][reason] = self.stats["reasons"].get(reason, 0) + 1
        if DEBUG:
            sys.stderr.write("fake_x_api: rejected: %s\n" % reason)

    def find_tweet(self, tweet_id):
        with self.lock:
            return next((t for t in self.tweets if str(t.id) == str(tweet_id)), None)

    def tweets_of(self, user_id):
        with self.lock:
            return [t for t in self.tweets if t.author == user_id]

    def home_of(self, _user_id):
        with self.lock:
            return list(self.tweets)

    def user_by_name(self, name):
        return next((u for u in USERS.values() if u["username"].lower() == (name or "").lower()), None)

    def post(self, user_id, text):
        with self.lock:
            if any(t.author == user_id and t.text == text for t in self.tweets):
                return None
            top = max((t.id for t in self.tweets), default=FIRST_ID)
            tweet = Tweet(top + 1000, text, user_id, int(self.now()),
                          {"retweet_count": 0, "reply_count": 0, "like_count": 0, "quote_count": 0})
            self.tweets.insert(0, tweet)
            return tweet

    def pop_script(self, path, redirects=False):
        """The next scripted action for path; with redirects=True only a redirect, which the edge
        answers before authentication."""
        with self.lock:
            for prefix, queue in self.scripts:
                if queue and path.startswith(prefix):
                    if redirects and "redirect" not in queue[0]:
                        return None
                    return queue.popleft()
        return None

    def window_headers(self, endpoint, limit, identity):
        """The rate-limit headers of the current window, counting this request."""
        _, limit, remaining, reset = self.take_rate_limit(endpoint, limit, identity, "")
        return [("x-rate-limit-limit", str(limit)), ("x-rate-limit-remaining", str(remaining)),
                ("x-rate-limit-reset", str(reset))]

    def take_rate_limit(self, endpoint, limit, identity, path):
        """Returns (allowed, limit, remaining, reset) and counts the request when allowed."""
        with self.lock:
            now = self.now()
            key = (endpoint, identity)
            counter = self.counters.get(key)
            if counter is None or now >= counter["reset"]:
                applied = counter["applied"] if counter else set()
                counter = {"limit": limit, "remaining": limit, "reset": now + WINDOW, "applied": applied}
                self.counters[key] = counter
            for override in self.overrides:
                if override["id"] not in counter["applied"] and path.startswith(override["prefix"]):
                    counter["applied"].add(override["id"])
                    counter["remaining"] = int(override["remaining"])
                    if override.get("reset_in") is not None:
                        counter["reset"] = now + float(override["reset_in"])
            if counter["remaining"] <= 0:
                return False, counter["limit"], 0, int(counter["reset"])
            counter["remaining"] -= 1
            return True, counter["limit"], counter["remaining"], int(counter["reset"])


STATE = None


# --- routes -----------------------------------------------------------------------------------
TWEET_EXTRA = ["expansions", "tweet.fields", "user.fields", "media.fields", "place.fields", "poll.fields"]
TIMELINE_PARAMS = ["id", "since_id", "until_id", "max_results", "pagination_token", "exclude",
                   "start_time", "end_time"] + TWEET_EXTRA
SEARCH_PARAMS = ["query", "start_time", "end_time", "since_id", "until_id", "max_results", "next_token",
                 "pagination_token", "sort_order"] + TWEET_EXTRA
USER_PARAMS = ["expansions", "tweet.fields", "user.fields"]


class Route:
    def __init__(self, method, pattern, name, handler, limit=None, bearer_ok=True, allowed=None):
        self.method, self.regex, self.name, self.handler = method, re.compile(pattern), name, handler
        self.limit = limit  # None: a write endpoint (no x-rate-limit headers)
        self.bearer_ok = bearer_ok
        self.allowed = allowed  # v2 query parameters X accepts (others: 400)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # no ~40 ms Nagle/delayed-ACK stall per response
    server_version = "tsa_b"
    sys_version = ""

    def log_message(self, fmt, *args):
        if DEBUG:
            sys.stderr.write("fake_x_api: %s\n" % (fmt % args))

    def date_time_string(self, timestamp=None):
        return email.utils.formatdate(STATE.now() if timestamp is None else timestamp, usegmt=True)

    # -- plumbing --
    def read_body(self):
        return read_body(self)

    def send(self, resp, record=None, truncate=False):
        self.send_response(resp.status)
        for name, value in resp.headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(resp.body)))
        self.end_headers()
        if record is not None:
            record["status"] = resp.status
        if self.command == "HEAD":
            return
        if truncate:
            self.wfile.write(resp.body[: len(resp.body) // 2])
            self.wfile.flush()
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self.close_connection = True
        else:
            self.wfile.write(resp.body)

    def reset_mid_body(self, resp, record):
        """Headers and half the body, then a TCP reset (SO_LINGER 0): a connection lost mid-body."""
        self.send_response(resp.status)
        for name, value in resp.headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(resp.body)))
        self.end_headers()
        self.wfile.write(resp.body[: len(resp.body) // 2])
        self.wfile.flush()
        self.reset_connection(record)

    def reset_connection(self, record):
        record["status"] = 0
        self.close_connection = True
        try:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
        except OSError:
            pass

    def handle_any(self):
        try:
            self.dispatch()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        except Exception:  # a bug in this server: say so loudly, answer 500
            traceback.print_exc()
            self.close_connection = True
            try:
                self.send(Resp(500, b"fake_x_api internal error", "text/plain; charset=utf-8"))
            except OSError:
                pass

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = handle_any

    # -- main flow --
    def dispatch(self):
        raw = self.path
        if raw.startswith(("http://", "https://")):
            parts = urlsplit(raw)
            raw = parts.path + ("?" + parts.query if parts.query else "")
        path, _, query = raw.partition("?")
        self.raw_target = raw
        body = self.read_body()
        if path.startswith("/_control/"):
            return self.control(path, query, body)
        record = {"method": self.command, "path": path, "query": query, "auth": "none", "status": None,
                  "authorization": bool(self.headers.get("Authorization"))}
        with STATE.lock:
            STATE.stats["requests"].append(record)
        edge = STATE.pop_script(path, redirects=True)
        if edge:
            target = edge["redirect"] + ("?" + query if query and edge.get("keep_query") else "")
            return self.send(Resp(int(edge.get("status", 307)), b"", "text/plain", [("Location", target)]), record)
        family = "v2" if path.startswith("/2/") else "v1" if path.startswith("/1.1/") else \
            "oauth" if path in ("/oauth/request_token", "/oauth/access_token") else None

        if family is None:
            if self.command in ("GET", "HEAD") and path in ("/oauth/authorize", "/oauth/authenticate"):
                return self.finish_request(record, path, None, lambda: self.authorize_page(query))
            return self.send(html_resp(404, NOT_FOUND_HTML), record)

        auth = self.authenticate(family, path, query, body, record)
        if isinstance(auth, Resp):
            return self.send(auth, record)

        if family == "oauth":
            return self.finish_request(record, path, None, lambda: self.oauth_endpoint(path, auth))

        route, match = self.match_route(path)
        if route is None:
            if family == "v1":
                return self.send(v1_resp(404, v1_errors(34, "Sorry, that page does not exist.")), record)
            return self.send(html_resp(404, NOT_FOUND_HTML), record)
        if auth.kind == "bearer" and not route.bearer_ok:
            STATE.reject("app_only_forbidden")
            if family == "v1" and self.command != "GET":
                return self.send(v1_resp(403, v1_errors(220, "Your credentials do not allow access to this resource.")), record)
            return self.send(v2_resp(403, V2_APP_ONLY), record)
        params = parse_qsl(query, keep_blank_values=True)
        context = {"auth": auth, "params": params, "query": dict(reversed(params)), "body": body,
                   "match": match, "family": family}
        return self.finish_request(record, path, route, lambda: self.run_route(route, context), auth.identity)

    def finish_request(self, record, path, route, produce, identity=None):
        action = STATE.pop_script(path)
        family = "v2" if path.startswith("/2/") else "v1"
        if action:
            if DEBUG:
                sys.stderr.write("fake_x_api: scripted %s -> %r\n" % (path, action))
            if action.get("delay"):
                time.sleep(float(action["delay"]))
            if action.get("reset_connection"):
                return self.reset_connection(record)
            if action.get("reset_mid_body"):
                return self.reset_mid_body(produce(), record)
            if action.get("truncate"):
                return self.send(produce(), record, truncate=True)
            if action.get("invalid_json"):
                return self.send(Resp(200, b'{"data": [', V2_CT if family == "v2" else V1_CT), record)
            if action.get("html"):
                return self.send(html_resp(502, BAD_GATEWAY_HTML), record)
            status = action.get("status")
            if status:
                return self.send(self.scripted_status(int(status), action, family, route, identity), record)
        return self.send(produce(), record)

    def scripted_status(self, status, action, family, route, identity):
        headers = list((action.get("headers") or {}).items())
        if status != 429 and route is not None and route.limit:
            headers += STATE.window_headers(route.name, route.limit, identity)
        if status == 429 and not action.get("bare"):
            reset = int(STATE.now() + float(action.get("reset_in", WINDOW)))
            limit = route.limit if route and route.limit else 300
            headers += [("x-rate-limit-limit", str(limit)), ("x-rate-limit-remaining", "0"),
                        ("x-rate-limit-reset", str(reset))]
        if "body" in action:
            return Resp(status, str(action["body"]).encode("utf-8"),
                        action.get("content_type") or (V2_CT if family == "v2" else V1_CT), headers)
        if status == 429:
            return v2_resp(429, V2_TOO_MANY, headers) if family == "v2" else \
                v1_resp(429, v1_errors(88, "Rate limit exceeded"), headers)
        title = REASONS.get(status) or self.responses.get(status, ("Error",))[0]
        if family == "v2":
            return v2_resp(status, {"title": title, "detail": title, "type": "about:blank", "status": status}, headers)
        return v1_resp(status, v1_errors(131, "Internal error"), headers)

    def match_route(self, path):
        for route in ROUTES:
            if route.method == self.command or (route.method == "GET" and self.command == "HEAD"):
                match = route.regex.match(path)
                if match:
                    return route, match
        return None, None

    def run_route(self, route, ctx):
        if route.allowed is not None:
            for name, value in ctx["params"]:
                if name.startswith("oauth_") or name in route.allowed:
                    continue
                return v2_resp(400, invalid_request(name, [value], "The query parameter [%s] is not one of [%s]"
                                                    % (name, ",".join(route.allowed))))
        if route.limit is None:
            return route.handler(self, ctx)
        auth = ctx["auth"]
        allowed, limit, remaining, reset = STATE.take_rate_limit(route.name, route.limit, auth.identity, ctx_path(self))
        headers = [("x-rate-limit-limit", str(limit)), ("x-rate-limit-remaining", str(remaining)),
                   ("x-rate-limit-reset", str(reset))]
        if not allowed:
            if ctx["family"] == "v2":
                return v2_resp(429, V2_TOO_MANY, headers)
            return v1_resp(429, v1_errors(88, "Rate limit exceeded"), headers)
        resp = route.handler(self, ctx)
        resp.headers += headers
        return resp

    # -- authentication --
    def deny(self, family, reason, kind, record=None):
        STATE.reject(reason)
        if kind == "timestamp":
            return v1_resp(401, v1_errors(135, "Timestamp out of bounds."))
        if kind == "verifier":
            return Resp(401, VERIFIER_ERROR, "text/plain; charset=utf-8")
        if family == "v2":
            return v2_resp(401, V2_UNAUTHORIZED)
        if kind == "missing":
            return v1_resp(400, v1_errors(215, "Bad Authentication data."))
        if kind == "token":
            return v1_resp(401, v1_errors(89, "Invalid or expired token."))
        return v1_resp(401, v1_errors(32, "Could not authenticate you."))

    def authenticate(self, family, path, query, body, record):
        header = self.headers.get("Authorization") or ""
        scheme, _, credentials = header.strip().partition(" ")
        scheme = scheme.lower()
        if scheme == "bearer" and family != "oauth":
            record["auth"] = "bearer"
            if safe_string_equals(credentials.strip(), STATE.args.bearer_token):
                with STATE.lock:
                    STATE.stats["bearer"] += 1
                return Auth("bearer", identity="app")
            return self.deny(family, "bearer_invalid", "token")

        form = is_form(self.headers)
        try:
            form_text = body.decode("utf-8") if form else None
        except UnicodeDecodeError:
            return self.deny(family, "malformed_body", "signature")
        headers = {"Authorization": header} if scheme == "oauth" else {}
        sent_oauth = scheme == "oauth" or any(
            k.startswith("oauth_") for k, _ in parse_qsl(query, keep_blank_values=True)
            + (parse_qsl(form_text, keep_blank_values=True) if form_text else []))
        if not sent_oauth:
            return self.deny(family, "missing_auth", "missing")
        record["auth"] = "oauth1"

        host = self.headers.get("Host") or "%s:%d" % self.server.server_address[:2]
        uri = "http://" + host + self.raw_target
        try:
            request = OAuthRequest(uri, http_method=self.command, body=form_text, headers=headers)
            everything = oauth_sig.collect_parameters(uri_query=request.uri_query, body=form_text,
                                                      headers=headers, exclude_oauth_signature=False)
            signed = oauth_sig.collect_parameters(uri_query=request.uri_query, body=form_text,
                                                  headers=headers, exclude_oauth_signature=True)
        except ValueError:
            return self.deny(family, "malformed", "signature")
        oauth = {}
        for name, value in everything:
            if name.startswith("oauth_"):
                if name in oauth:
                    return self.deny(family, "duplicate_oauth_parameter", "signature")
                oauth[name] = value
        method = oauth.get("oauth_signature_method", "")
        required = ["oauth_consumer_key", "oauth_signature_method", "oauth_signature"]
        if method != "PLAINTEXT":
            required += ["oauth_timestamp", "oauth_nonce"]
        if any(not oauth.get(name) for name in required) or oauth.get("oauth_version", "1.0") != "1.0":
            return self.deny(family, "incomplete_oauth_parameters", "signature")
        consumer_key = oauth["oauth_consumer_key"]
        consumer_secret = STATE.consumers.get(consumer_key)
        if consumer_secret is None:
            return self.deny(family, "unknown_consumer", "signature")
        if method not in ("HMAC-SHA1", "HMAC-SHA256", "HMAC-SHA512", "PLAINTEXT"):
            return self.deny(family, "unsupported_signature_method", "signature")

        token = oauth.get("oauth_token")
        user_id = None
        with STATE.lock:
            if path == "/oauth/request_token":
                token_secret = ""
            elif path == "/oauth/access_token":
                pending = STATE.request_tokens.get(token or "")
                if pending is None:
                    return self.deny(family, "unknown_request_token", "token")
                token_secret = pending["secret"]
            else:
                entry = STATE.access_tokens.get(token or "")
                if entry is None:
                    return self.deny(family, "unknown_token" if token else "missing_token", "token")
                token_secret, user_id = entry["secret"], entry["user_id"]

        normalized = oauth_sig.normalize_parameters(signed)
        base_uri = oauth_sig.base_string_uri(uri)
        base = oauth_sig.signature_base_string(self.command, base_uri, normalized)
        if method == "PLAINTEXT":
            expected = oauth_sig.sign_plaintext(consumer_secret, token_secret)
        else:
            algorithm = {"HMAC-SHA1": "SHA-1", "HMAC-SHA256": "SHA-256", "HMAC-SHA512": "SHA-512"}[method]
            expected = oauth_sig._sign_hmac(algorithm, base, consumer_secret, token_secret)
        if not safe_string_equals(expected, oauth["oauth_signature"]):
            if DEBUG:
                sys.stderr.write("fake_x_api: base string %s\n  expected %s got %s\n"
                                 % (base, expected, oauth["oauth_signature"]))
            return self.deny(family, "bad_signature", "signature")
        if token and token in STATE.revoked:
            return self.deny(family, "revoked_token", "token")

        now = STATE.now()
        if "oauth_timestamp" in oauth:
            try:
                timestamp = int(oauth["oauth_timestamp"])
            except ValueError:
                return self.deny(family, "malformed_timestamp", "signature")
            if abs(timestamp - now) > TIMESTAMP_TOLERANCE:
                return self.deny(family, "timestamp_out_of_bounds", "timestamp")
        if "oauth_nonce" in oauth:
            key = (consumer_key, oauth.get("oauth_timestamp"), oauth["oauth_nonce"])
            with STATE.lock:
                if key in STATE.nonces:
                    return self.deny(family, "nonce_reused", "signature")
                STATE.nonces[key] = now
                if len(STATE.nonces) > 50000:
                    cutoff = now - 2 * TIMESTAMP_TOLERANCE - abs(STATE.skew) - 60
                    STATE.nonces = {k: v for k, v in STATE.nonces.items() if v > cutoff}

        if path == "/oauth/request_token" and not oauth.get("oauth_callback"):
            return self.deny(family, "missing_callback", "signature")
        if path == "/oauth/access_token":
            with STATE.lock:
                pending = STATE.request_tokens.get(token)
                if pending is None or not safe_string_equals(oauth.get("oauth_verifier", ""), pending["verifier"]):
                    return self.deny(family, "bad_verifier", "verifier")
                del STATE.request_tokens[token]  # single use
        with STATE.lock:
            STATE.stats["verified"] += 1
        if DEBUG:
            sys.stderr.write("fake_x_api: verified %s %s\n" % (self.command, path))
        auth = Auth("oauth1", identity="user:%s" % user_id, user_id=user_id or MAIN_USER, token=token)
        auth.oauth = oauth
        return auth

    # -- OAuth endpoints --
    def oauth_endpoint(self, path, auth):
        if self.command != "POST":
            return v1_resp(404, v1_errors(34, "Sorry, that page does not exist."))
        if path == "/oauth/request_token":
            callback = auth.oauth.get("oauth_callback") or "oob"
            token = secrets.token_urlsafe(20).replace("-", "A").replace("_", "B")
            secret = secrets.token_urlsafe(24).replace("-", "C").replace("_", "D")
            with STATE.lock:
                STATE.request_tokens[token] = {"secret": secret, "verifier": str(1000000 + secrets.randbelow(9000000)),
                                               "callback": callback}
            body = "oauth_token=%s&oauth_token_secret=%s&oauth_callback_confirmed=true" % (token, secret)
            return Resp(200, body.encode(), HTML_CT)
        token = MAIN_USER + "-" + secrets.token_urlsafe(30).replace("-", "x").replace("_", "y")
        secret = secrets.token_urlsafe(33).replace("-", "z").replace("_", "w")
        with STATE.lock:
            STATE.access_tokens[token] = {"secret": secret, "user_id": MAIN_USER}
        body = "oauth_token=%s&oauth_token_secret=%s&user_id=%s&screen_name=%s" % (
            token, secret, MAIN_USER, USERS[MAIN_USER]["username"])
        return Resp(200, body.encode(), HTML_CT)

    def authorize_page(self, query):
        token = dict(parse_qsl(query, keep_blank_values=True)).get("oauth_token", "")
        with STATE.lock:
            pending = STATE.request_tokens.get(token)
        if pending is None:
            return html_resp(404, NOT_FOUND_HTML)
        from html import escape
        link = ""
        if pending["callback"] != "oob":
            sep = "&" if "?" in pending["callback"] else "?"
            target = "%s%soauth_token=%s&oauth_verifier=%s" % (pending["callback"], sep, quote(token), pending["verifier"])
            link = '<p><a id="oauth_callback" href="%s">Return to the application</a></p>\n' % escape(target)
        page = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Authorize application</title></head>\n"
                "<body><div id=\"oauth_pin\"><p>You've granted access to the Fake X app as @%s.</p>\n"
                "<p>Next, return to the app and enter this PIN to complete the authorization process:</p>\n"
                "<p><kbd aria-labelledby=\"code-desc\"><code id=\"oauth_pin\">%s</code></kbd></p></div>\n%s</body></html>\n"
                % (USERS[MAIN_USER]["username"], pending["verifier"], link))
        return html_resp(200, page.encode("utf-8"))

    # -- control --
    def control(self, path, query, body):
        def ok(obj, status=200):
            return self.send(Resp(status, json.dumps(obj).encode(), "application/json"))
        try:
            data = json.loads(body.decode("utf-8")) if body.strip() else {}
        except ValueError:
            return ok({"error": "body is not JSON"}, 400)
        params = dict(parse_qsl(query, keep_blank_values=True))
        with STATE.lock:
            if path == "/_control/stats":
                return ok({k: (list(v) if k == "requests" else dict(v) if k == "reasons" else v)
                           for k, v in STATE.stats.items()})
            if path == "/_control/reset":
                STATE.reset()
                return ok({"ok": True})
            if path == "/_control/script":
                prefix, responses = data.get("path_prefix"), data.get("responses")
                if not isinstance(prefix, str) or not isinstance(responses, list):
                    return ok({"error": "need path_prefix and responses"}, 400)
                for entry in STATE.scripts:
                    if entry[0] == prefix:
                        entry[1].extend(responses)
                        break
                else:
                    STATE.scripts.append([prefix, collections.deque(responses)])
                return ok({"ok": True, "queued": len(responses)})
            if path == "/_control/clock":
                STATE.skew = float(data.get("skew", 0))
                return ok({"ok": True, "skew": STATE.skew, "now": STATE.now()})
            if path == "/_control/revoke":
                STATE.revoked.add(str(data.get("token", "")))
                return ok({"ok": True})
            if path == "/_control/rate_limit":
                if not isinstance(data.get("path_prefix"), str) or "remaining" not in data:
                    return ok({"error": "need path_prefix and remaining"}, 400)
                STATE.overrides.append({"id": len(STATE.overrides) + 1, "prefix": data["path_prefix"],
                                        "remaining": int(data["remaining"]), "reset_in": data.get("reset_in")})
                return ok({"ok": True})
            if path == "/_control/pin":
                pending = STATE.request_tokens.get(params.get("oauth_token", ""))
                return ok({"pin": pending["verifier"]} if pending else {"error": "unknown oauth_token"},
                          200 if pending else 404)
            if path == "/_control/tweets":
                user_id = params.get("user_id")
                return ok({"ids": [str(t.id) for t in STATE.tweets if not user_id or t.author == user_id]})
        return ok({"error": "unknown control endpoint"}, 404)


def ctx_path(handler):
    return handler.raw_target.partition("?")[0]


# --- v2 ---------------------------------------------------------------------------------------
def v2_user(user, fields):
    out = {"id": user["id"], "name": user["name"], "username": user["username"]}
    if "created_at" in fields:
        out["created_at"] = iso_date(user["created_at"])
    if "description" in fields:
        out["description"] = "Fixture account %s for the Swift tests" % user["username"]
    if "protected" in fields:
        out["protected"] = False
    if "verified" in fields:
        out["verified"] = False
    if "public_metrics" in fields:
        out["public_metrics"] = {"followers_count": user["followers"], "following_count": user["following"],
                                 "tweet_count": len(STATE.tweets_of(user["id"])), "listed_count": 1}
    return out


class Fields:
    def __init__(self, query):
        self.tweet = set(split_list(query.get("tweet.fields")))
        self.user = set(split_list(query.get("user.fields")))
        self.expansions = set(split_list(query.get("expansions")))


def v2_tweet(tweet, fields):
    out = {"id": str(tweet.id), "text": short_text(tweet.text), "edit_history_tweet_ids": [str(tweet.id)]}
    if "note_tweet" in fields.tweet and len(tweet.text) > TEXT_LIMIT:
        out["note_tweet"] = {"text": tweet.text}
    if "author_id" in fields.tweet or "author_id" in fields.expansions:
        out["author_id"] = tweet.author
    if "created_at" in fields.tweet:
        out["created_at"] = iso_date(tweet.created)
    if "public_metrics" in fields.tweet:
        out["public_metrics"] = dict(tweet.metrics)
    if "conversation_id" in fields.tweet:
        out["conversation_id"] = str(tweet.id)
    if "lang" in fields.tweet:
        out["lang"] = "en"
    return out


def v2_envelope(tweets, fields, meta=None, errors=None, single=False):
    out = {}
    if tweets:
        out["data"] = v2_tweet(tweets[0], fields) if single else [v2_tweet(t, fields) for t in tweets]
    if tweets and "author_id" in fields.expansions:
        seen = []
        for t in tweets:
            if t.author not in seen:
                seen.append(t.author)
        out["includes"] = {"users": [v2_user(USERS[u], fields.user) for u in seen]}
    if meta is not None:
        out["meta"] = meta
    if errors:
        out["errors"] = errors
    return out


TOKEN_PREFIX = {"pagination_token": "7140dib", "next_token": "b26v89c"}


def b36(n):
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while n:
        n, r = divmod(n, 36)
        out = digits[r] + out
    return out or "0"


def v2_timeline(ctx, tweets, low, high, default, token_names):
    query = ctx["query"]
    raw = query.get("max_results")
    count = default
    if raw is not None:
        try:
            count = int(raw)
        except ValueError:
            count = None
        if count is None or not low <= count <= high:
            return v2_resp(400, invalid_request("max_results", [raw], "The `max_results` query parameter value [%s] is not between %d and %d" % (raw, low, high)))
    for name in ("since_id", "until_id"):
        if name in query and not ID_RE.match(query[name]):
            return v2_resp(400, invalid_request(name, [query[name]], "The `%s` query parameter value [%s] does not match ^[0-9]{1,19}$" % (name, query[name])))
    for name in ("start_time", "end_time"):
        if name in query and parse_iso(query[name]) is None:
            return v2_resp(400, invalid_request(name, [query[name]], "Invalid '%s':'%s'. '%s' must be a valid RFC 3339 date-time" % (name, query[name], name)))
    after = None
    for name in token_names:
        token = query.get(name)
        if token is None:
            continue
        prefix = TOKEN_PREFIX["pagination_token" if token_names[0] == "pagination_token" else "next_token"]
        try:
            if not token.startswith(prefix):
                raise ValueError
            after = int(token[len(prefix):], 36)
        except ValueError:
            return v2_resp(400, invalid_request(name, [token], "The `%s` query parameter value [%s] is not valid" % (name, token)))
    selected = []
    since = int(query["since_id"]) if "since_id" in query else None
    until = int(query["until_id"]) if "until_id" in query else None
    start = parse_iso(query["start_time"]) if "start_time" in query else None
    end = parse_iso(query["end_time"]) if "end_time" in query else None
    for t in tweets:
        if since is not None and t.id <= since:
            continue
        if until is not None and t.id >= until:
            continue
        if after is not None and t.id >= after:
            continue
        if start is not None and t.created < start:
            continue
        if end is not None and t.created >= end:
            continue
        selected.append(t)
    page, more = selected[:count], len(selected) > count
    if not page:
        return v2_resp(200, {"meta": {"result_count": 0}})
    meta = {"result_count": len(page), "newest_id": str(page[0].id), "oldest_id": str(page[-1].id)}
    if more:
        prefix = TOKEN_PREFIX["pagination_token" if token_names[0] == "pagination_token" else "next_token"]
        meta["next_token"] = prefix + b36(page[-1].id)
    return v2_resp(200, v2_envelope(page, Fields(query), meta))


def check_user_id(value, parameter="id"):
    if not ID_RE.match(value):
        return v2_resp(400, invalid_request(parameter, [value], "The `%s` query parameter value [%s] does not match ^[0-9]{1,19}$" % (parameter, value)))
    return None


def r_v2_me(handler, ctx):
    return v2_resp(200, {"data": v2_user(USERS[ctx["auth"].user_id], Fields(ctx["query"]).user)})


def r_v2_user_by_username(handler, ctx):
    name = unquote(ctx["match"].group(1))
    if not re.match(r"^[A-Za-z0-9_]{1,15}$", name):
        return v2_resp(400, invalid_request("username", [name], "The `username` query parameter value [%s] does not match ^[A-Za-z0-9_]{1,15}$" % name))
    user = STATE.user_by_name(name)
    if user is None:
        return v2_resp(200, {"errors": [not_found_error(name, "user", "username", "Could not find user with username: [%s]." % name)]})
    return v2_resp(200, {"data": v2_user(user, Fields(ctx["query"]).user)})


def path_user(ctx):
    """The user id in the path and, when it is invalid or unknown, X's answer for that."""
    user_id = ctx["match"].group(1)
    bad = check_user_id(user_id)
    if bad:
        return user_id, bad
    if user_id not in USERS:
        return user_id, v2_resp(200, {"errors": [not_found_error(user_id, "user", "id", "Could not find user with id: [%s]." % user_id)]})
    return user_id, None


def r_v2_user(handler, ctx):
    user_id, answer = path_user(ctx)
    if answer:
        return answer
    return v2_resp(200, {"data": v2_user(USERS[user_id], Fields(ctx["query"]).user)})


def r_v2_user_tweets(handler, ctx):
    user_id, answer = path_user(ctx)
    if answer:
        return answer
    return v2_timeline(ctx, STATE.tweets_of(user_id), 5, 100, 10, ["pagination_token"])


def r_v2_home(handler, ctx):
    user_id = ctx["match"].group(1)
    if user_id != ctx["auth"].user_id:
        return v2_resp(403, V2_FORBIDDEN)
    return v2_timeline(ctx, STATE.home_of(user_id), 1, 100, 100, ["pagination_token"])


def r_v2_tweet(handler, ctx):
    tweet_id = ctx["match"].group(1)
    if not ID_RE.match(tweet_id):
        return v2_resp(400, invalid_request("id", [tweet_id], "The `id` query parameter value [%s] does not match ^[0-9]{1,19}$" % tweet_id))
    tweet = STATE.find_tweet(tweet_id)
    if tweet is None:
        return v2_resp(200, {"errors": [not_found_error(tweet_id, "tweet", "id", "Could not find tweet with id: [%s]." % tweet_id)]})
    return v2_resp(200, v2_envelope([tweet], Fields(ctx["query"]), single=True))


def r_v2_tweets(handler, ctx):
    raw = ctx["query"].get("ids")
    ids = split_list(raw)
    if not ids:
        return v2_resp(400, invalid_request("ids", [raw or ""], "The `ids` query parameter can not be empty"))
    if len(ids) > 100:
        return v2_resp(400, invalid_request("ids", [raw], "The number of values in the `ids` query parameter list [%d] is not between 1 and 100" % len(ids)))
    for value in ids:
        if not ID_RE.match(value):
            return v2_resp(400, invalid_request("ids", [raw], "The `ids` query parameter value [%s] does not match ^[0-9]{1,19}$" % value))
    found, errors, seen = [], [], set()
    for value in ids:
        if value in seen:
            continue
        seen.add(value)
        tweet = STATE.find_tweet(value)
        if tweet:
            found.append(tweet)
        else:
            errors.append(not_found_error(value, "tweet", "ids", "Could not find tweet with ids: [%s]." % value))
    return v2_resp(200, v2_envelope(found, Fields(ctx["query"]), errors=errors))


def search_filter(query_text):
    terms, author = [], None
    for term in query_text.split():
        if term.lower().startswith("from:"):
            author = STATE.user_by_name(term[5:].lstrip("@"))
            if author is None:
                return None
        else:
            terms.append(term.casefold())
    with STATE.lock:
        pool = list(STATE.tweets)
    return [t for t in pool if (author is None or t.author == author["id"])
            and all(term in t.text.casefold() for term in terms)]


def r_v2_search(handler, ctx):
    query_text = ctx["query"].get("query")
    if not query_text or not query_text.strip():
        return v2_resp(400, invalid_request("query", [query_text or ""], "The `query` query parameter can not be empty"))
    tweets = search_filter(query_text) or []
    return v2_timeline(ctx, tweets, 10, 100, 10, ["next_token", "pagination_token"])


def r_v2_create(handler, ctx):
    if media_type(handler.headers) != "application/json":
        return v2_resp(400, V2_JSON_REQUIRED)
    try:
        data = json.loads(ctx["body"].decode("utf-8"))
    except ValueError:
        return v2_resp(400, {"errors": [{"message": "Request body is not valid JSON."}], "title": "Invalid Request",
                             "detail": "One or more parameters to your request was invalid.",
                             "type": "https://api.twitter.com/2/problems/invalid-request"})
    text = data.get("text") if isinstance(data, dict) else None
    if not isinstance(text, str) or not text:
        return v2_resp(400, {"errors": [{"message": "$.text: is missing but it is required"}], "title": "Invalid Request",
                             "detail": "One or more parameters to your request was invalid.",
                             "type": "https://api.twitter.com/2/problems/invalid-request"})
    if len(text) > 280:
        return v2_resp(403, V2_TOO_LONG)
    tweet = STATE.post(ctx["auth"].user_id, text)
    if tweet is None:
        return v2_resp(403, V2_DUPLICATE)
    return v2_resp(201, {"data": {"id": str(tweet.id), "text": tweet.text, "edit_history_tweet_ids": [str(tweet.id)]}})


def r_v2_delete(handler, ctx):
    tweet_id = ctx["match"].group(1)
    with STATE.lock:
        tweet = STATE.find_tweet(tweet_id)
        if tweet is None or tweet.author != ctx["auth"].user_id:
            return v2_resp(403, V2_FORBIDDEN)
        STATE.tweets.remove(tweet)
    return v2_resp(200, {"data": {"deleted": True}})


# --- v1.1 -------------------------------------------------------------------------------------
def truthy(value):
    return (value or "").lower() in ("1", "true", "t", "yes")


def v1_user_small(user):
    return {"id": int(user["id"]), "id_str": user["id"], "name": user["name"], "screen_name": user["username"]}


def v1_tweet(tweet, query):
    out = {"created_at": v1_date(tweet.created), "id": tweet.id, "id_str": str(tweet.id)}
    if (query.get("tweet_mode") or "").lower() == "extended":
        # v1.1 knows no long posts: even its full_text is the cut `text`.
        out["full_text"] = short_text(tweet.text)
        out["truncated"] = False
        out["display_text_range"] = [0, len(out["full_text"])]
    elif len(tweet.text) > 140:
        out["text"] = tweet.text[:139] + "\u2026"
        out["truncated"] = True
    else:
        out["text"] = tweet.text
        out["truncated"] = False
    out["source"] = '<a href="https://github.com/fake-x-api" rel="nofollow">Fake X API</a>'
    out.update({"in_reply_to_status_id": None, "in_reply_to_status_id_str": None, "in_reply_to_user_id": None,
                "in_reply_to_user_id_str": None, "in_reply_to_screen_name": None})
    user = USERS[tweet.author]
    out["user"] = {"id": int(user["id"]), "id_str": user["id"]} if truthy(query.get("trim_user")) else v1_user_small(user)
    out.update({"geo": None, "coordinates": None, "place": None, "is_quote_status": False,
                "retweet_count": tweet.metrics["retweet_count"], "favorite_count": tweet.metrics["like_count"],
                "favorited": False, "retweeted": False, "lang": "en"})
    return out


def int_param(query, name):
    try:
        return int(query[name]) if query.get(name) else None
    except ValueError:
        return None


def v1_select(tweets, query, default, maximum):
    count = int_param(query, "count")
    count = default if count is None else max(1, min(maximum, count))
    since, max_id = int_param(query, "since_id"), int_param(query, "max_id")
    selected = [t for t in tweets if (since is None or t.id > since) and (max_id is None or t.id <= max_id)]
    return selected[:count], len(selected) > count, count


def r_v1_verify(handler, ctx):
    user = USERS[ctx["auth"].user_id]
    out = v1_user_small(user)
    out.update({"followers_count": user["followers"], "friends_count": user["following"],
                "statuses_count": len(STATE.tweets_of(user["id"])), "created_at": v1_date(user["created_at"])})
    return v1_resp(200, out)


def r_v1_user_timeline(handler, ctx):
    query = ctx["query"]
    if query.get("user_id"):
        user = USERS.get(query["user_id"])
    elif query.get("screen_name"):
        user = STATE.user_by_name(query["screen_name"].lstrip("@"))
    elif ctx["auth"].user_id:
        user = USERS[ctx["auth"].user_id]
    else:
        return v1_resp(400, v1_errors(215, "Bad Authentication data."))
    if user is None:
        return v1_resp(404, v1_errors(34, "Sorry, that page does not exist."))
    page, _, _ = v1_select(STATE.tweets_of(user["id"]), query, 20, 200)
    return v1_resp(200, [v1_tweet(t, query) for t in page])


def r_v1_home(handler, ctx):
    page, _, _ = v1_select(STATE.home_of(ctx["auth"].user_id), ctx["query"], 20, 200)
    return v1_resp(200, [v1_tweet(t, ctx["query"]) for t in page])


def r_v1_show(handler, ctx):
    tweet_id = ctx["match"].group(1) if ctx["match"].groups() and ctx["match"].group(1) else ctx["query"].get("id", "")
    tweet = STATE.find_tweet(tweet_id) if ID_RE.match(tweet_id or "") else None
    if tweet is None:
        return v1_resp(404, v1_errors(144, "No status found with that ID."))
    return v1_resp(200, v1_tweet(tweet, ctx["query"]))


def r_v1_search(handler, ctx):
    query = ctx["query"]
    q = query.get("q")
    if not q or not q.strip():
        return v1_resp(400, v1_errors(25, "Query parameters are missing."))
    page, more, count = v1_select(search_filter(q) or [], query, 15, 100)
    statuses = []
    for t in page:
        status = v1_tweet(t, query)
        status["metadata"] = {"iso_language_code": "en", "result_type": "recent"}
        statuses.append(status)
    top = page[0].id if page else (int_param(query, "max_id") or 0)
    meta = {"completed_in": 0.01, "max_id": top, "max_id_str": str(top)}
    if more:
        meta["next_results"] = "?max_id=%d&q=%s&include_entities=1" % (page[-1].id - 1, quote(q, safe=""))
    meta.update({"query": q, "refresh_url": "?since_id=%d&q=%s&include_entities=1" % (top, quote(q, safe="")),
                 "count": count, "since_id": int_param(query, "since_id") or 0,
                 "since_id_str": str(int_param(query, "since_id") or 0)})
    return v1_resp(200, {"statuses": statuses, "search_metadata": meta})


def r_v1_update(handler, ctx):
    params = dict(reversed(ctx["params"]))
    if is_form(handler.headers):
        try:
            params.update(dict(reversed(parse_qsl(ctx["body"].decode("utf-8"), keep_blank_values=True))))
        except UnicodeDecodeError:
            pass
    status = params.get("status")
    if not status:
        return v1_resp(400, v1_errors(170, "Missing required parameter: status."))
    if len(status) > 280:
        return v1_resp(403, v1_errors(186, "Tweet needs to be a bit shorter."))
    tweet = STATE.post(ctx["auth"].user_id, status)
    if tweet is None:
        return v1_resp(403, v1_errors(187, "Status is a duplicate."))
    return v1_resp(200, v1_tweet(tweet, params))


ROUTES = [
    Route("GET", r"^/2/users/me$", "v2_me", r_v2_me, 75, bearer_ok=False, allowed=USER_PARAMS),
    Route("GET", r"^/2/users/by/username/([^/]+)$", "v2_user_by_username", r_v2_user_by_username, 300, allowed=USER_PARAMS),
    Route("GET", r"^/2/users/([^/]+)/tweets$", "v2_user_tweets", r_v2_user_tweets, 1500, allowed=TIMELINE_PARAMS),
    Route("GET", r"^/2/users/([^/]+)/timelines/reverse_chronological$", "v2_home", r_v2_home, 180,
          bearer_ok=False, allowed=TIMELINE_PARAMS),
    Route("GET", r"^/2/users/([^/]+)$", "v2_user", r_v2_user, 300, allowed=USER_PARAMS),
    Route("GET", r"^/2/tweets/search/recent$", "v2_search", r_v2_search, 450, allowed=SEARCH_PARAMS),
    Route("GET", r"^/2/tweets$", "v2_tweets", r_v2_tweets, 300, allowed=["ids"] + TWEET_EXTRA),
    Route("GET", r"^/2/tweets/([^/]+)$", "v2_tweet", r_v2_tweet, 300, allowed=TWEET_EXTRA),
    Route("POST", r"^/2/tweets$", "v2_create", r_v2_create, None, bearer_ok=False, allowed=[]),
    Route("DELETE", r"^/2/tweets/([^/]+)$", "v2_delete", r_v2_delete, None, bearer_ok=False, allowed=[]),
    Route("GET", r"^/1\.1/account/verify_credentials\.json$", "v1_verify", r_v1_verify, 900, bearer_ok=False),
    Route("GET", r"^/1\.1/statuses/user_timeline\.json$", "v1_user_timeline", r_v1_user_timeline, 900),
    Route("GET", r"^/1\.1/statuses/home_timeline\.json$", "v1_home", r_v1_home, 900, bearer_ok=False),
    Route("GET", r"^/1\.1/statuses/show(?:/([0-9]+))?\.json$", "v1_show", r_v1_show, 900),
    Route("GET", r"^/1\.1/search/tweets\.json$", "v1_search", r_v1_search, 900),
    Route("POST", r"^/1\.1/statuses/update\.json$", "v1_update", r_v1_update, None, bearer_ok=False),
]


def main():
    global STATE
    parser = argparse.ArgumentParser(description="Fake X/Twitter API with OAuth 1.0a verified by oauthlib")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--lifetime", type=float, default=300)
    parser.add_argument("--consumer-key", default="fake-consumer-key")
    parser.add_argument("--consumer-secret", default="fake-consumer-secret")
    parser.add_argument("--access-token", default="1001-fakeaccesstoken")
    parser.add_argument("--access-token-secret", default="fake-access-token-secret")
    parser.add_argument("--bearer-token", default="fake-bearer-token")
    parser.add_argument("--tweets", type=int, default=250)
    args = parser.parse_args()
    STATE = State(args)
    serve(Handler, args.host, args.lifetime)


if __name__ == "__main__":
    main()
