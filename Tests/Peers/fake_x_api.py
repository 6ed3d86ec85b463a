"""A fake X/Twitter API on 127.0.0.1 for the XAPI tests: OAuth 1.0a verified by oauthlib.

Standard library plus oauthlib only, and nothing from the project itself: it is an independent
verifier of what the Swift client sends. Prints "PORT <n>" once it listens; exits when its
stdin closes (the test process is gone) or its --lifetime ends. Quiet unless FAKE_X_DEBUG=1.
Flags: --tweets N (swift_fixture's tweets), --full-archive (the app may use search/all),
--lifetime, --host, and the consumer, token and bearer credentials.

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
timelines (403 unsupported-authentication); on writes it gets 403 too. Full-archive search and
tweet counts are app-only, as X documents them: OAuth 1.0a gets 403 unsupported-authentication
("Authenticating with OAuth 1.0a User Context is forbidden ... [OAuth 2.0 Application-Only]").

Routes (v2: rate-limit headers on every read; `max_results` range and default in brackets):
  GET  /2/users/me                                   (user context only)
  GET  /2/users/:id   /2/users/by/username/:name     unknown: 200 with errors resource-not-found
  GET  /2/users?ids=  /2/users/by?usernames=         1..100; the missing ones in `errors`
  GET  /2/users/:id/tweets                 [5-100, 10]  pagination_token; exclude=replies,retweets
  GET  /2/users/:id/timelines/reverse_chronological [1-100, 100]  (user context, own id only)
  GET  /2/users/:id/mentions               [5-100, 10]  other accounts' tweets mentioning the user
  GET  /2/users/:id/liked_tweets           [5-100, 100] meta: result_count, next_token
  GET  /2/users/:id/followers, /following  [1-1000, 100] users; 16-character base-32 tokens
  GET  /2/tweets/:id  /2/tweets?ids=       (an earlier version of an edited tweet is found too)
  GET  /2/tweets/:id/quote_tweets          [10-100, 10] exclude=replies,retweets
  GET  /2/lists/:id/tweets                 [1-100, 100] list 1500 only (others: errors, "list")
  GET  /2/tweets/search/recent             [10-100, 10] next_token
  GET  /2/tweets/search/all                [10-500, 10] bearer; 403 client-not-enrolled unless
                                           the server runs with --full-archive
  GET  /2/tweets/counts/recent             bearer; granularity minute|hour (default)|day
  POST /2/tweets {"text", "reply"?: {"in_reply_to_tweet_id"}, "quote_tweet_id"?}; DELETE /2/tweets/:id
  v1.1: account/verify_credentials, statuses/user_timeline (exclude_replies, include_rts),
  statuses/home_timeline, statuses/show(/:id), search/tweets, statuses/update.
Search queries (recent, all, counts, v1.1): words (case-insensitive), from:, to:,
conversation_id: (the replies, not the tweet that started it), lang:, is:retweet|reply|quote,
has:media|links|mentions|hashtags, each negatable with "-". Counts: the fake's "now" is 30 s
after its newest tweet (the fixtures are from 2024), the window the 7 days before it; the first
bucket starts at start_time, the others on the granularity's boundaries, the last ends at end_time.

Fields, only when asked, as X sends them (a value X does not know: 400 "is not one of [...]"):
  tweet: id, text, edit_history_tweet_ids always; note_tweet (long posts; its entities with
  `entities`), author_id, created_at, public_metrics (retweet, reply, like, quote, bookmark,
  impression counts), conversation_id, lang, in_reply_to_user_id (replies), referenced_tweets,
  entities (urls: start, end, url, expanded_url, display_url, media_key for the media link;
  mentions: start, end, username, id; hashtags: start, end, tag; code point offsets; left out
  when empty), attachments.media_keys, possibly_sensitive, display_text_range, edit_controls,
  reply_settings. An expansion brings the field it needs (author_id, referenced_tweets,
  attachments, in_reply_to_user_id, entities).
  expansions: author_id, in_reply_to_user_id, entities.mentions.username (includes.users);
  referenced_tweets.id (includes.tweets, with the same tweet.fields; a deleted one: errors,
  parameter referenced_tweets.id); referenced_tweets.id.author_id (their authors, and author_id
  on them); attachments.media_keys, referenced_tweets.id.attachments.media_keys (includes.media);
  edit_history_tweet_ids (earlier versions); users: pinned_tweet_id, most_recent_tweet_id.
  media: media_key, type always; url (photos), preview_image_url (videos, GIFs), alt_text (when
  set), width, height, duration_ms, variants.
  user: id, name, username always; created_at, description, protected, verified, public_metrics
  (followers, following, tweet, listed, like, media counts), location (when set), url,
  profile_image_url, verified_type, pinned_tweet_id, most_recent_tweet_id.
v1.1 tweets carry entities (hashtags, symbols, user_mentions, urls, media; include_entities=false
drops them), extended_entities (every media; video_info; ext_alt_text with
include_ext_alt_text=true), in_reply_to_*, retweeted_status, quoted_status(_id, _permalink),
possibly_sensitive (tweets with links or media), lang.

Fixtures (--tweets N of swift_fixture, default 250; oauth_friend and third_party 40 each; ids
1800000000000000000 - 1000 i, one a minute back from 2024-05-01T12:00Z, newest first). "A7" is
swift_fixture's 7th newest tweet, B oauth_friend's, C third_party's (GET /_control/fixtures
lists the ids). Replies (text led by "@user " mentions, conversation_id the root's): B5 -> A19,
C3 -> B5, A4 -> C3 (conversation A19: B5, C3, A4), A7 -> C12, B2 -> A30, C13..C20 -> A40..A47.
Quotes: B6..B11 and C5..C10 quote A25 (12), A9 quotes B12. Retweets ("RT @user: " + text, cut
to 140 with an ellipsis; metrics: the original's retweet_count, zeros): B3 of A11, C2 of B14,
A2 of C1, A13 of B13 (a long post). Media (a t.co link at the end of the text): A3 photo with
alt text, A5 two photos, B4 video (possibly_sensitive), C4 GIF ("\U0001F389" x3, lang und).
Links and hashtags: A10 (after an emoji), A12 (#SwiftLang #linux, two links), B16 (#\u65e5\u672c\u8a9e
and a link), C11 (#fishandchips); "#5" in the Caf\u00e9 posts is no hashtag. A14 was edited:
edit_history_tweet_ids [A14 - 500, A14]. lang: fr (Caf\u00e9 posts), ja (\u65e5\u672c\u8a9e posts), und (C4),
else en. Pinned: A19. Accounts fan_0001..fan_1300 (ids 2000001..2001300) only follow: followers /
following of swift_fixture 230 / 7, oauth_friend 1234 / 56, third_party 99 / 100. Likes:
swift_fixture 28 (the others' every third tweet), oauth_friend 25, third_party none. Mentions:
swift_fixture 12, oauth_friend 4, third_party 3. List 1500: the 80 tweets of oauth_friend and
third_party. With a small --tweets, the references that do not fit are left out.

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
  GET  /_control/fixtures    the ids of the replies, quotes, retweets, media, links, hashtags,
       edited, sensitive and long tweets; per-language ids; conversations and quoted tweets;
       pinned, likes, mentions, follower counts, the list, whether --full-archive is on
  POST /_control/reset       clears scripts, skew, stats, rate-limit counters, revocations
"""
import argparse
import base64
import binascii
import bisect
import calendar
import collections
import email.utils
import json
import math
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
from peer_server import add_common_arguments, read_body, serve, split_list
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
V2_USER_CONTEXT_FORBIDDEN = {
    "title": "Unsupported Authentication",
    "detail": "Authenticating with OAuth 1.0a User Context is forbidden for this endpoint.  "
              "Supported authentication types are [OAuth 2.0 Application-Only].",
    "type": "https://api.twitter.com/2/problems/unsupported-authentication",
    "status": 403,
}
# An app without the access level an endpoint needs (full-archive search: Pro or Enterprise).
FAKE_CLIENT_ID = "29384756"
V2_CLIENT_NOT_ENROLLED = {
    "client_id": FAKE_CLIENT_ID,
    "detail": "When authenticating requests to the Twitter API v2 endpoints, you must use keys and tokens from a "
              "Twitter developer App that is attached to a Project. You can create a project via the developer portal.",
    "registration_url": "https://developer.twitter.com/en/docs/projects/overview",
    "title": "Client Forbidden",
    "required_enrollment": "Appropriate Level of API Access",
    "reason": "client-not-enrolled",
    "type": "https://api.twitter.com/2/problems/client-forbidden",
}
V2_REPLY_GONE = {"detail": "You attempted to reply to a Tweet that is deleted or not visible to you.",
                 "type": "about:blank", "title": "Forbidden", "status": 403}
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



def is_form(headers):
    media = (headers.get("Content-Type") or "").split(";")[0].strip().lower()
    return media == "application/x-www-form-urlencoded"


def media_type(headers):
    return (headers.get("Content-Type") or "").split(";")[0].strip().lower()


# --- fixtures ---------------------------------------------------------------------------------
USERS = {
    "1001": {"id": "1001", "name": "Swift Fixture", "username": "swift_fixture",
             "created_at": calendar.timegm((2019, 3, 4, 5, 6, 7)), "location": "Cupertino, CA"},
    "1002": {"id": "1002", "name": "OAuth Friend", "username": "oauth_friend",
             "created_at": calendar.timegm((2015, 6, 7, 8, 9, 10))},
    "1003": {"id": "1003", "name": "Third Party", "username": "third_party",
             "created_at": calendar.timegm((2012, 1, 2, 3, 4, 5))},
}
FIXTURE_USERS = ("1001", "1002", "1003")
for _user in USERS.values():
    _user["description"] = "Fixture account %s for the Swift tests" % _user["username"]

# Accounts that only follow and are followed: "fan_0001" (id 2000001) ... "fan_1300" (2001300).
FAN_COUNT = 1300
FAN_PLACES = ["Paris, France", "\u6771\u4eac", "Berlin", "S\u00e3o Paulo", "Lagos"]


def fan_id(k):
    return str(2000000 + k)


for _k in range(1, FAN_COUNT + 1):
    _fan = {"id": fan_id(_k), "name": ("F\u00e4n %d" if _k % 50 == 0 else "Fan %d") % _k, "username": "fan_%04d" % _k,
            "created_at": BASE_TIME - 86400 * (30 + (_k * 37) % 3000) - _k,
            "description": "Swift on Linux, mostly" if _k % 7 == 0 else ""}
    if _k % 3 == 0:
        _fan["location"] = FAN_PLACES[(_k // 3) % len(FAN_PLACES)]
    if _k % 97 == 0:
        _fan["protected"] = True
    USERS[_fan["id"]] = _fan
USERNAMES = {u["username"].lower(): u for u in USERS.values()}


def fans(first, last):
    """Fans first..last, the most recent follow (the highest number) first, as X lists them."""
    return [fan_id(k) for k in range(last, first - 1, -1)]


# Who follows whom, most recent first: 230 followers of swift_fixture (3 pages of 100), 1234 of
# oauth_friend (2 pages of 1000); the fixture accounts all follow one another.
FOLLOWERS = {"1001": fans(1, 228) + ["1003", "1002"], "1002": fans(1, 1232) + ["1003", "1001"],
             "1003": fans(1, 97) + ["1002", "1001"]}
FOLLOWING = {"1001": fans(1, 5) + ["1003", "1002"], "1002": fans(1, 54) + ["1003", "1001"],
             "1003": fans(1, 98) + ["1002", "1001"]}
_FOLLOWER_SETS = {u: set(ids) for u, ids in FOLLOWERS.items()}
_FOLLOWING_SETS = {u: set(ids) for u, ids in FOLLOWING.items()}


def followers_of(user_id):
    if user_id in FOLLOWERS:
        return FOLLOWERS[user_id]
    return [u for u in FIXTURE_USERS if user_id in _FOLLOWING_SETS[u]]


def following_of(user_id):
    if user_id in FOLLOWING:
        return FOLLOWING[user_id]
    return [u for u in FIXTURE_USERS if user_id in _FOLLOWER_SETS[u]]


# The one list: owned by swift_fixture, members oauth_friend and third_party.
LIST_ID = "1500"
LIST_MEMBERS = ("1002", "1003")


class Tweet:
    __slots__ = ("id", "text", "author", "created", "metrics", "seq", "lang", "refs", "reply_user", "conversation",
                 "reply_prefix", "media", "media_link", "sensitive", "edits", "edit_start", "hidden", "ents",
                 "v2_entities", "note_entities")

    def __init__(self, tweet_id, text, author, created, metrics, seq=0):
        self.id, self.text, self.author, self.created, self.metrics = tweet_id, text, author, created, metrics
        self.seq = seq  # the author's n-th fixture tweet (1: the newest)
        self.lang = None
        self.refs = []  # [(type, id)]: replied_to, quoted, retweeted
        self.reply_user = None
        self.conversation = str(tweet_id)
        self.reply_prefix = 0  # length of the leading "@user " mentions of a reply
        self.media = []
        self.media_link = None  # the t.co link to the media, at the end of the text
        self.sensitive = False
        self.edits = [str(tweet_id)]
        self.edit_start = created  # when the first version was posted
        self.hidden = False  # an earlier version of an edited post: found by id, in no timeline

    def ref(self, kind):
        return next((i for k, i in self.refs if k == kind), None)

    def finish(self):
        """Derives the entities (code point indices, as X counts them) and, unless set, the language."""
        self.ents = extract_entities(self.text, self)
        cut = short_text(self.text)
        visible = len(cut) if cut == self.text else len(cut) - 1
        self.v2_entities = v2_entities([e for e in self.ents if e["end"] <= visible])
        self.note_entities = v2_entities(self.ents) if cut != self.text else None
        if self.lang is None:
            self.lang = detect_lang(self.text)


LONG_TAIL = ("This sentence is here to make the post longer than one hundred and forty characters, "
             "so v1.1 compatibility mode has to truncate it. And this one makes it a long post, longer than "
             "two hundred and eighty characters: X cuts its `text` short and sends the whole post only in "
             "`note_tweet`, when `tweet.fields` asks for it. THE END.")

# X's limit for the `text` of a long post; the rest is only in `note_tweet`.
TEXT_LIMIT = 280
# A retweet's `text` is "RT @user: " and the original, cut to this many characters.
RETWEET_LIMIT = 140


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


# t.co links in fixture texts and where they lead (expanded_url, display_url).
LINKS = {
    "https://t.co/Sw1ftB1og0": ("https://www.swift.org/blog/", "swift.org/blog/"),
    "https://t.co/L1nuxInst4": ("https://www.swift.org/install/linux/", "swift.org/install/linux/"),
    "https://t.co/GettingSt5": ("https://github.com/swiftlang/swift/blob/main/docs/HowToGuides/GettingStarted.md",
                                "github.com/swiftlang/swif\u2026"),
    "https://t.co/N1hongoW1k": ("https://ja.wikipedia.org/wiki/%E6%97%A5%E6%9C%AC%E8%AA%9E",
                                "ja.wikipedia.org/wiki/\u65e5\u672c\u8a9e"),
}

URL_RE = re.compile(r"https://t\.co/[A-Za-z0-9]+")
MENTION_RE = re.compile(r"(?<![\w@!#$%&*])@([A-Za-z0-9_]{1,15})(?![\w@])")
HASHTAG_RE = re.compile(r"(?<![\w&#])#(\w*[^\W\d]\w*)")  # not all digits: "#5" is no hashtag


def extract_entities(text, tweet=None):
    """Links, mentions (of existing accounts) and hashtags in text, by code point offsets."""
    found = []
    for m in URL_RE.finditer(text):
        url = m.group()
        if tweet is not None and url == tweet.media_link:
            for item in tweet.media:
                found.append({"kind": "url", "start": m.start(), "end": m.end(), "url": url,
                              "expanded_url": item["expanded_url"], "display_url": "pic.x.com/" + url[13:],
                              "media_key": item["media_key"]})
        elif url in LINKS:
            found.append({"kind": "url", "start": m.start(), "end": m.end(), "url": url,
                          "expanded_url": LINKS[url][0], "display_url": LINKS[url][1]})
    for m in MENTION_RE.finditer(text):
        user = USERNAMES.get(m.group(1).lower())
        if user:
            found.append({"kind": "mention", "start": m.start(), "end": m.end(), "user": user})
    for m in HASHTAG_RE.finditer(text):
        found.append({"kind": "hashtag", "start": m.start(), "end": m.end(), "tag": m.group(1)})
    return sorted(found, key=lambda e: e["start"])


def v2_entities(ents):
    """The v2 `entities` object, or None when there is nothing (X leaves the field out then)."""
    urls = [{k: e[k] for k in ("start", "end", "url", "expanded_url", "display_url", "media_key") if k in e}
            for e in ents if e["kind"] == "url"]
    mentions = [{"start": e["start"], "end": e["end"], "username": e["user"]["username"], "id": e["user"]["id"]}
                for e in ents if e["kind"] == "mention"]
    hashtags = [{"start": e["start"], "end": e["end"], "tag": e["tag"]} for e in ents if e["kind"] == "hashtag"]
    out = {}
    if urls:
        out["urls"] = urls
    if hashtags:
        out["hashtags"] = hashtags
    if mentions:
        out["mentions"] = mentions
    return out or None


def detect_lang(text):
    """What X's language detection would say of the fixtures: BCP 47, `und` for no words."""
    body = HASHTAG_RE.sub("", MENTION_RE.sub("", URL_RE.sub("", text)))
    if re.search("[\u3040-\u30ff]", body):
        return "ja"
    if re.search("[\u00e0\u00e2\u00e7\u00e8\u00e9\u00ea\u00eb\u00ee\u00ef\u00f4\u00fb\u00f9\u0153]", body):
        return "fr"
    if re.search("[A-Za-z]{2,}", body):
        return "en"
    return "und"


def new_metrics(i):
    return {"retweet_count": (i * 7) % 13, "reply_count": (i * 3) % 5, "like_count": (i * 11) % 50,
            "quote_count": i % 3, "bookmark_count": i % 4, "impression_count": 100 + (i * 37) % 900}


# The fixture's replies, quotes, retweets, media, links, edits: (author, n) is the author's n-th
# tweet, newest first (swift_fixture 1 is the newest tweet of all).
A, B, C = "1001", "1002", "1003"
REPLIES = [((B, 5), (A, 19)), ((C, 3), (B, 5)), ((A, 4), (C, 3)),  # a conversation of four
           ((A, 7), (C, 12)), ((B, 2), (A, 30))] + [((C, n), (A, 27 + n)) for n in range(13, 21)]
QUOTES = [((B, n), (A, 25)) for n in range(6, 12)] + [((C, n), (A, 25)) for n in range(5, 11)] + [((A, 9), (B, 12))]
RETWEETS = [((B, 3), (A, 11)), ((C, 2), (B, 14)), ((A, 2), (C, 1)), ((A, 13), (B, 13))]
TEXT_SUFFIXES = {(A, 10): " https://t.co/Sw1ftB1og0",
                 (A, 12): " #SwiftLang #linux https://t.co/L1nuxInst4 https://t.co/GettingSt5",
                 (C, 11): " #fishandchips",
                 (B, 16): " #\u65e5\u672c\u8a9e https://t.co/N1hongoW1k"}
TEXT_REPLACED = {(C, 4): "\U0001F389\U0001F389\U0001F389"}  # no words: lang "und"
# (type, width, height, alt text); all of a tweet's media share one t.co link at the end of its text.
MEDIA = {(A, 3): ("Rk7Ph0toA3", [("photo", 1200, 800, "A rocket on its launch pad at dawn")]),
         (A, 5): ("Tw0Ph0toA5", [("photo", 1024, 768, "A terminal running swift build on Linux"),
                                 ("photo", 768, 1024, None)]),
         (B, 4): ("Vid30B4xyz", [("video", 1280, 720, None)]),
         (C, 4): ("G1fC4abcde", [("animated_gif", 498, 280, "Confetti")])}
SENSITIVE = {(B, 4)}
EDITED = {(A, 14): "Tweet 14 from @swift_fixture: helo world"}  # the first version, fixed 30 s later
PINNED = {A: (A, 19)}
# Likes, most recent first: swift_fixture liked every third tweet of the others, oauth_friend
# every tenth of swift_fixture's; third_party liked nothing.
LIKES = {A: lambda t: t.author != A and t.seq % 3 == 1, B: lambda t: t.author == A and t.seq % 10 == 1}
MEDIA_PREFIX = {"photo": "3_", "video": "7_", "animated_gif": "16_"}


def media_items(tweet, code, specs):
    username = USERS[tweet.author]["username"]
    items = []
    for n, (kind, width, height, alt) in enumerate(specs, 1):
        media_id = tweet.id - n
        item = {"media_key": MEDIA_PREFIX[kind] + str(media_id), "type": kind, "id": media_id,
                "width": width, "height": height}
        path = "photo" if kind != "video" else "video"
        item["expanded_url"] = "https://x.com/%s/status/%d/%s/%d" % (username, tweet.id, path, n)
        name = code + b36(media_id)[-5:]
        if kind == "photo":
            item["url"] = "https://pbs.twimg.com/media/%s.jpg" % name
        elif kind == "video":
            item["preview_image_url"] = "https://pbs.twimg.com/ext_tw_video_thumb/%d/pu/img/%s.jpg" % (media_id, name)
            item["duration_ms"] = 12345
            item["variants"] = [
                {"bit_rate": 2176000, "content_type": "video/mp4",
                 "url": "https://video.twimg.com/ext_tw_video/%d/pu/vid/avc1/%dx%d/%s.mp4?tag=12" % (media_id, width, height, name)},
                {"content_type": "application/x-mpegURL",
                 "url": "https://video.twimg.com/ext_tw_video/%d/pu/pl/%s.m3u8?tag=12" % (media_id, name)}]
        else:
            item["preview_image_url"] = "https://pbs.twimg.com/tweet_video_thumb/%s.jpg" % name
            item["variants"] = [{"bit_rate": 0, "content_type": "video/mp4",
                                 "url": "https://video.twimg.com/tweet_video/%s.mp4" % name}]
        if alt:
            item["alt_text"] = alt
        items.append(item)
    return items


def build_tweets(main_count):
    """The fixture tweets, newest first, and the earlier versions of edited ones."""
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
        tweets.append(Tweet(FIRST_ID - 1000 * i, fixture_text(produced[author], USERS[author]["username"]),
                            author, BASE_TIME - 60 * i, new_metrics(i), produced[author]))
        i += 1
    nth = {(t.author, t.seq): t for t in tweets}
    # A reference needs both tweets, the referenced one older (a smaller id); with fewer
    # fixture tweets (--tweets), the ones that do not fit are left out.
    pair = lambda a, b: (nth[a], nth[b]) if a in nth and b in nth and nth[a].id > nth[b].id else (None, None)

    for key, text in TEXT_REPLACED.items():
        if key in nth:
            nth[key].text = text
    for key, suffix in TEXT_SUFFIXES.items():
        if key in nth:
            nth[key].text += suffix
    for key in SENSITIVE:
        if key in nth:
            nth[key].sensitive = True
    for key, (code, specs) in MEDIA.items():
        if key in nth:
            tweet = nth[key]
            tweet.media_link = "https://t.co/" + code
            tweet.text += " " + tweet.media_link
            tweet.media = media_items(tweet, code, specs)
    for reply_key, parent_key in REPLIES:  # parents before their replies
        reply, parent = pair(reply_key, parent_key)
        if reply is None:
            continue
        leading = [USERS[parent.author]["username"]] + [e["user"]["username"] for e in extract_entities(parent.text)
                                                         if e["kind"] == "mention" and e["end"] <= parent.reply_prefix]
        names = []
        for name in leading:
            if name not in names and name != USERS[reply.author]["username"]:
                names.append(name)
        prefix = "".join("@%s " % name for name in names)
        reply.text = prefix + reply.text
        reply.reply_prefix = len(prefix)
        reply.refs.append(("replied_to", str(parent.id)))
        reply.reply_user = parent.author
        reply.conversation = parent.conversation
        parent.metrics["reply_count"] += 1
    for quote_key, quoted_key in QUOTES:
        quote, quoted = pair(quote_key, quoted_key)
        if quote is not None:
            quote.refs.append(("quoted", str(quoted.id)))
            quoted.metrics["quote_count"] += 1
    for key, first_text in EDITED.items():
        if key in nth:
            tweet = nth[key]
            first = Tweet(tweet.id - 500, first_text, tweet.author, tweet.created - 30, dict(tweet.metrics), tweet.seq)
            first.hidden = True
            tweet.edits = first.edits = [str(first.id), str(tweet.id)]
            tweet.edit_start = first.edit_start = first.created
            tweets.append(first)
    for tweet in tweets:
        tweet.finish()
    for rt_key, original_key in RETWEETS:  # last: the originals' texts are final
        retweet, original = pair(rt_key, original_key)
        if retweet is None:
            continue
        original.metrics["retweet_count"] += 1
        text = "RT @%s: %s" % (USERS[original.author]["username"], original.text)
        retweet.text = text if len(text) <= RETWEET_LIMIT else text[:RETWEET_LIMIT - 1] + "\u2026"
        retweet.refs = [("retweeted", str(original.id))]
        retweet.lang = original.lang
        retweet.finish()
    for rt_key, original_key in RETWEETS:  # a retweet counts the original's retweets, and nothing else
        retweet, original = pair(rt_key, original_key)
        if retweet is not None:
            retweet.metrics = dict.fromkeys(retweet.metrics, 0)
            retweet.metrics["retweet_count"] = original.metrics["retweet_count"]
    return [t for t in tweets if not t.hidden], [t for t in tweets if t.hidden]


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
        self.tweets, earlier = build_tweets(args.tweets)  # newest first
        self.by_id = {t.id: t for t in self.tweets + earlier}
        self.pinned = {}
        for user_id, key in PINNED.items():
            pinned = next((t for t in self.tweets if (t.author, t.seq) == key), None)
            if pinned is not None:
                self.pinned[user_id] = str(pinned.id)
        self.likes = {user_id: [t.id for t in self.tweets if liked(t)] for user_id, liked in LIKES.items()}
        self._stats = None
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
        """A tweet by id, visible or an earlier version of an edited one."""
        try:
            key = int(tweet_id)
        except (TypeError, ValueError):
            return None
        with self.lock:
            return self.by_id.get(key)

    def tweets_of(self, user_id):
        with self.lock:
            return [t for t in self.tweets if t.author == user_id]

    def home_of(self, _user_id):
        with self.lock:
            return list(self.tweets)

    def mentions_of(self, user_id):
        """Other accounts' tweets that mention the user, newest first."""
        with self.lock:
            return [t for t in self.tweets if t.author != user_id
                    and any(e["kind"] == "mention" and e["user"]["id"] == user_id for e in t.ents)]

    def liked_by(self, user_id):
        with self.lock:
            return [self.by_id[i] for i in self.likes.get(user_id, []) if i in self.by_id and not self.by_id[i].hidden]

    def quotes_of(self, tweet_id):
        with self.lock:
            return [t for t in self.tweets if ("quoted", str(tweet_id)) in t.refs]

    def list_tweets(self):
        with self.lock:
            return [t for t in self.tweets if t.author in LIST_MEMBERS]

    def user_stats(self, user_id):
        """(tweet count, media tweet count, newest tweet id) of a user."""
        with self.lock:
            if self._stats is None:
                stats = {}
                for t in self.tweets:
                    count, media, newest = stats.get(t.author, (0, 0, None))
                    stats[t.author] = (count + 1, media + (1 if t.media else 0), newest or str(t.id))
                self._stats = stats
            return self._stats.get(user_id, (0, 0, None))

    def user_by_name(self, name):
        return USERNAMES.get((name or "").lower())

    def post(self, user_id, text, reply_to=None, quote=None):
        with self.lock:
            if any(t.author == user_id and t.text == text for t in self.tweets):
                return None
            top = max((t.id for t in self.tweets), default=FIRST_ID)
            tweet = Tweet(top + 1000, text, user_id, int(self.now()), dict.fromkeys(new_metrics(0), 0))
            if reply_to is not None:
                tweet.refs.append(("replied_to", str(reply_to.id)))
                tweet.reply_user = reply_to.author
                tweet.conversation = reply_to.conversation
                reply_to.metrics["reply_count"] += 1
            if quote is not None:
                tweet.refs.append(("quoted", str(quote.id)))
                quote.metrics["quote_count"] += 1
            tweet.finish()
            self.tweets.insert(0, tweet)
            self.by_id[tweet.id] = tweet
            self._stats = None
            return tweet

    def delete(self, tweet):
        with self.lock:
            self.tweets.remove(tweet)
            for tweet_id in tweet.edits:
                self.by_id.pop(int(tweet_id), None)
            self._stats = None

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


def fixture_facts():
    """What the fixtures hold, for tests that need ids (GET /_control/fixtures)."""
    with STATE.lock:
        tweets = list(STATE.tweets)
    ids = lambda pick: [str(t.id) for t in tweets if pick(t)]
    conversations, quoted = {}, {}
    for t in tweets:
        if t.ref("replied_to"):
            conversations.setdefault(t.conversation, []).append(str(t.id))
        if t.ref("quoted"):
            quoted.setdefault(t.ref("quoted"), []).append(str(t.id))
    return {"replies": ids(lambda t: t.ref("replied_to")), "quotes": ids(lambda t: t.ref("quoted")),
            "retweets": ids(lambda t: t.ref("retweeted")), "media": ids(lambda t: t.media),
            "links": ids(lambda t: any(e["kind"] == "url" and "media_key" not in e for e in t.ents)),
            "hashtags": ids(lambda t: any(e["kind"] == "hashtag" for e in t.ents)),
            "edited": ids(lambda t: len(t.edits) > 1), "sensitive": ids(lambda t: t.sensitive),
            "long": ids(lambda t: len(t.text) > TEXT_LIMIT),
            "lang": {lang: ids(lambda t, lang=lang: t.lang == lang) for lang in sorted({t.lang for t in tweets}) if lang != "en"},
            "lang_counts": {lang: len(ids(lambda t, lang=lang: t.lang == lang)) for lang in sorted({t.lang for t in tweets})},
            "conversations": conversations, "quoted": quoted, "pinned": dict(STATE.pinned),
            "likes": {u: [str(t.id) for t in STATE.liked_by(u)] for u in STATE.likes},
            "mentions": {u: ids(lambda t, u=u: t in STATE.mentions_of(u)) for u in FIXTURE_USERS},
            "followers": {u: len(followers_of(u)) for u in FIXTURE_USERS},
            "following": {u: len(following_of(u)) for u in FIXTURE_USERS},
            "list": {"id": LIST_ID, "members": list(LIST_MEMBERS), "tweets": len(STATE.list_tweets())},
            "full_archive": bool(STATE.args.full_archive)}


# --- routes -----------------------------------------------------------------------------------
TWEET_EXTRA = ["expansions", "tweet.fields", "user.fields", "media.fields", "place.fields", "poll.fields"]
TIMELINE_PARAMS = ["id", "since_id", "until_id", "max_results", "pagination_token", "exclude",
                   "start_time", "end_time"] + TWEET_EXTRA
MENTION_PARAMS = ["since_id", "until_id", "max_results", "pagination_token", "start_time", "end_time"] + TWEET_EXTRA
PAGE_PARAMS = ["max_results", "pagination_token"]
SEARCH_PARAMS = ["query", "start_time", "end_time", "since_id", "until_id", "max_results", "next_token",
                 "pagination_token", "sort_order"] + TWEET_EXTRA
COUNT_PARAMS = ["query", "start_time", "end_time", "since_id", "until_id", "next_token", "pagination_token",
                "granularity", "search_count.fields"]
USER_PARAMS = ["expansions", "tweet.fields", "user.fields"]

# The values X accepts in the fields and expansions parameters (X API v2 OpenAPI); any other is a 400.
TWEET_FIELDS = [
    "article", "attachments", "author_id", "card_uri", "community_id", "context_annotations", "conversation_id",
    "created_at", "display_text_range", "edit_controls", "edit_history_tweet_ids", "entities", "geo", "id",
    "in_reply_to_user_id", "lang", "matched_media_notes", "media_metadata", "non_public_metrics",
    "note_request_suggestions", "note_tweet", "organic_metrics", "paid_partnership", "possibly_sensitive",
    "promoted_metrics", "public_metrics", "referenced_tweets", "reply_settings", "scopes", "source",
    "suggested_source_links", "suggested_source_links_with_counts", "text", "withheld"]
USER_FIELDS = [
    "affiliation", "confirmed_email", "connection_status", "created_at", "description", "entities", "id",
    "is_identity_verified", "location", "most_recent_tweet_id", "name", "parody", "pinned_tweet_id",
    "profile_banner_url", "profile_image_url", "protected", "public_metrics", "receives_your_dm", "subscription",
    "subscription_type", "url", "username", "verified", "verified_followers_count", "verified_type", "withheld"]
MEDIA_FIELDS = ["alt_text", "duration_ms", "height", "media_key", "non_public_metrics", "organic_metrics",
                "preview_image_url", "promoted_metrics", "public_metrics", "type", "url", "variants", "width"]
POLL_FIELDS = ["duration_minutes", "end_datetime", "id", "options", "voting_status"]
PLACE_FIELDS = ["contained_within", "country", "country_code", "full_name", "geo", "id", "name", "place_type"]
TWEET_EXPANSIONS = [
    "article.cover_media", "article.media_entities", "attachments.media_keys", "attachments.media_source_tweet",
    "attachments.poll_ids", "author_id", "edit_history_tweet_ids", "entities.mentions.username",
    "entities.note.mentions.username", "geo.place_id", "in_reply_to_user_id", "referenced_tweets.id",
    "referenced_tweets.id.attachments.media_keys", "referenced_tweets.id.author_id"]
USER_EXPANSIONS = ["affiliation.user_id", "most_recent_tweet_id", "pinned_tweet_id"]
FIELD_VALUES = {"tweet.fields": TWEET_FIELDS, "user.fields": USER_FIELDS, "media.fields": MEDIA_FIELDS,
                "poll.fields": POLL_FIELDS, "place.fields": PLACE_FIELDS,
                "search_count.fields": ["end", "start", "tweet_count"]}


class Route:
    def __init__(self, method, pattern, name, handler, limit=None, bearer_ok=True, allowed=None, user_ok=True,
                 expansions=TWEET_EXPANSIONS, gate=None):
        self.method, self.regex, self.name, self.handler = method, re.compile(pattern), name, handler
        self.limit = limit  # None: a write endpoint (no x-rate-limit headers)
        self.bearer_ok = bearer_ok
        self.user_ok = user_ok  # False: OAuth 2.0 app-only (bearer) only, as X's search/all and counts
        self.allowed = allowed  # v2 query parameters X accepts (others: 400)
        self.expansions = expansions  # the `expansions` values X accepts here
        self.gate = gate  # a check before the rate limit: an answer (the app's access level) or None


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
        if auth.kind == "oauth1" and not route.user_ok:
            STATE.reject("user_context_forbidden")
            return self.send(v2_resp(403, V2_USER_CONTEXT_FORBIDDEN), record)
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
        if route.gate is not None:
            refused = route.gate()
            if refused is not None:
                return refused
        if route.allowed is not None:
            for name, value in ctx["params"]:
                if name.startswith("oauth_") or name in route.allowed:
                    continue
                return v2_resp(400, invalid_request(name, [value], "The query parameter [%s] is not one of [%s]"
                                                    % (name, ",".join(route.allowed))))
            refused = check_fields(route, ctx["query"])
            if refused is not None:
                return refused
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
            if path == "/_control/fixtures":
                return ok(fixture_facts())
        return ok({"error": "unknown control endpoint"}, 404)


def ctx_path(handler):
    return handler.raw_target.partition("?")[0]


# --- v2 ---------------------------------------------------------------------------------------
class Fields:
    def __init__(self, query):
        self.tweet = set(split_list(query.get("tweet.fields")))
        self.user = set(split_list(query.get("user.fields")))
        self.media = set(split_list(query.get("media.fields")))
        self.expansions = set(split_list(query.get("expansions")))


def check_fields(route, query):
    """X's 400 for a value its fields or expansions parameters do not know."""
    lists = dict(FIELD_VALUES, expansions=route.expansions)
    for name, known in lists.items():
        raw = query.get(name)
        if raw is None or name not in route.allowed:
            continue
        for value in raw.split(","):
            if value not in known:
                return v2_resp(400, invalid_request(name, [raw], "The `%s` query parameter value [%s] is not one of [%s]"
                                                    % (name, value, ",".join(sorted(known)))))
    return None


def v2_user(user, fields):
    out = {"id": user["id"], "name": user["name"], "username": user["username"]}
    if "created_at" in fields:
        out["created_at"] = iso_date(user["created_at"])
    if "description" in fields:
        out["description"] = user.get("description", "")
    if "protected" in fields:
        out["protected"] = user.get("protected", False)
    if "verified" in fields:
        out["verified"] = False
    tweets, media, newest = STATE.user_stats(user["id"])
    if "public_metrics" in fields:
        out["public_metrics"] = {"followers_count": len(followers_of(user["id"])),
                                 "following_count": len(following_of(user["id"])), "tweet_count": tweets,
                                 "listed_count": 1 if user["id"] in FIXTURE_USERS else 0,
                                 "like_count": len(STATE.likes.get(user["id"], [])), "media_count": media}
    if "location" in fields and user.get("location"):
        out["location"] = user["location"]
    if "url" in fields:
        out["url"] = ""
    if "profile_image_url" in fields:
        out["profile_image_url"] = "https://pbs.twimg.com/profile_images/%d/%s_normal.jpg" % (
            1700000000000000000 + int(user["id"]), user["username"])
    if "verified_type" in fields:
        out["verified_type"] = "none"
    if "pinned_tweet_id" in fields and user["id"] in STATE.pinned:
        out["pinned_tweet_id"] = STATE.pinned[user["id"]]
    if "most_recent_tweet_id" in fields and newest:
        out["most_recent_tweet_id"] = newest
    return out


def v2_users_envelope(users, query, meta=None, errors=None, single=False):
    """`data` (users), `includes.tweets` (pinned_tweet_id, most_recent_tweet_id), `meta`, `errors`."""
    fields = Fields(query)
    out = {}
    if users:
        out["data"] = v2_user(users[0], fields.user) if single else [v2_user(u, fields.user) for u in users]
        tweets = []
        for user in users:
            wanted = []
            if "pinned_tweet_id" in fields.expansions and user["id"] in STATE.pinned:
                wanted.append(STATE.pinned[user["id"]])
            if "most_recent_tweet_id" in fields.expansions and STATE.user_stats(user["id"])[2]:
                wanted.append(STATE.user_stats(user["id"])[2])
            for tweet_id in wanted:
                tweet = STATE.find_tweet(tweet_id)
                if tweet is not None and tweet not in tweets:
                    tweets.append(tweet)
        if tweets:
            out["includes"] = {"tweets": [v2_tweet(t, fields, included=True) for t in tweets]}
    if meta is not None:
        out["meta"] = meta
    if errors:
        out["errors"] = errors
    return out


def v2_media(item, fields):
    out = {"media_key": item["media_key"], "type": item["type"]}
    for name in ("url", "preview_image_url", "width", "height", "duration_ms", "alt_text", "variants"):
        if name in fields and name in item:
            out[name] = item[name]
    return out


def v2_tweet(tweet, fields, included=False):
    """A tweet with the fields asked for; the fields an expansion needs come with it, as X sends
    them (`author_id` with expansions=author_id, and so on). `included`: one in includes.tweets."""
    asked, exp = fields.tweet, fields.expansions
    text = short_text(tweet.text)
    out = {"id": str(tweet.id), "text": text, "edit_history_tweet_ids": list(tweet.edits)}
    if "note_tweet" in asked and text != tweet.text:
        out["note_tweet"] = {"text": tweet.text}
        if tweet.note_entities and "entities" in asked:
            out["note_tweet"]["entities"] = tweet.note_entities
    if "author_id" in asked or ("author_id" in exp and not included) or \
            (included and "referenced_tweets.id.author_id" in exp):
        out["author_id"] = tweet.author
    if "created_at" in asked:
        out["created_at"] = iso_date(tweet.created)
    if "public_metrics" in asked:
        out["public_metrics"] = dict(tweet.metrics)
    if "conversation_id" in asked:
        out["conversation_id"] = tweet.conversation
    if "lang" in asked:
        out["lang"] = tweet.lang
    if tweet.reply_user and ("in_reply_to_user_id" in asked or ("in_reply_to_user_id" in exp and not included)):
        out["in_reply_to_user_id"] = tweet.reply_user
    if tweet.refs and ("referenced_tweets" in asked or ("referenced_tweets.id" in exp and not included)):
        out["referenced_tweets"] = [{"type": kind, "id": ref} for kind, ref in tweet.refs]
    if tweet.v2_entities and ("entities" in asked or ("entities.mentions.username" in exp and not included)):
        out["entities"] = tweet.v2_entities
    if tweet.media and ("attachments" in asked or ("attachments.media_keys" in exp and not included) or
                        (included and "referenced_tweets.id.attachments.media_keys" in exp)):
        out["attachments"] = {"media_keys": [m["media_key"] for m in tweet.media]}
    if "possibly_sensitive" in asked:
        out["possibly_sensitive"] = tweet.sensitive
    if "display_text_range" in asked:
        end = len(text) - (len(tweet.media_link) + 1 if tweet.media_link and text.endswith(tweet.media_link) else 0)
        out["display_text_range"] = [tweet.reply_prefix, end]
    if "edit_controls" in asked:
        out["edit_controls"] = {"edits_remaining": 6 - len(tweet.edits),
                                "is_edit_eligible": tweet.ref("retweeted") is None,
                                "editable_until": iso_date(tweet.edit_start + 3600)}
    if "reply_settings" in asked:
        out["reply_settings"] = "everyone"
    return out


def v2_includes(tweets, fields):
    """`includes` for the expansions asked for, and an error per referenced tweet that is gone."""
    exp = fields.expansions
    users, tweets_in, media, errors = [], [], [], []

    def add_user(user_id):
        if user_id in USERS and user_id not in users:
            users.append(user_id)

    if "author_id" in exp:
        for t in tweets:
            add_user(t.author)
    if "in_reply_to_user_id" in exp:
        for t in tweets:
            if t.reply_user:
                add_user(t.reply_user)
    if "entities.mentions.username" in exp:
        for t in tweets:
            for e in t.ents:
                if e["kind"] == "mention":
                    add_user(e["user"]["id"])
    referenced = []
    if exp & {"referenced_tweets.id", "referenced_tweets.id.author_id", "referenced_tweets.id.attachments.media_keys"}:
        for t in tweets:
            for _, ref in t.refs:
                found = STATE.find_tweet(ref)
                if found is None:
                    if "referenced_tweets.id" in exp and not any(e["value"] == ref for e in errors):
                        errors.append(not_found_error(ref, "tweet", "referenced_tweets.id",
                                                      "Could not find tweet with referenced_tweets.id: [%s]." % ref))
                elif found not in referenced:
                    referenced.append(found)
    if "referenced_tweets.id" in exp:
        tweets_in.extend(referenced)
    if "referenced_tweets.id.author_id" in exp:
        for t in referenced:
            add_user(t.author)
    if "edit_history_tweet_ids" in exp:
        for t in tweets:
            for version in t.edits:
                found = STATE.find_tweet(version)
                if found is not None and found is not t and found not in tweets_in:
                    tweets_in.append(found)
    with_media = list(tweets) if "attachments.media_keys" in exp else []
    if "referenced_tweets.id.attachments.media_keys" in exp:
        with_media += referenced
    for t in with_media:
        for item in t.media:
            if item not in media:
                media.append(item)
    out = {}
    if users:
        out["users"] = [v2_user(USERS[u], fields.user) for u in users]
    if tweets_in:
        out["tweets"] = [v2_tweet(t, fields, included=True) for t in tweets_in]
    if media:
        out["media"] = [v2_media(m, fields.media) for m in media]
    return out, errors


def v2_envelope(tweets, fields, meta=None, errors=None, single=False):
    out = {}
    more_errors = []
    if tweets:
        out["data"] = v2_tweet(tweets[0], fields) if single else [v2_tweet(t, fields) for t in tweets]
        includes, more_errors = v2_includes(tweets, fields)
        if includes:
            out["includes"] = includes
    if meta is not None:
        out["meta"] = meta
    if errors or more_errors:
        out["errors"] = (errors or []) + more_errors
    return out


TOKEN_PREFIX = {"pagination_token": "7140dib", "next_token": "b26v89c"}
OFFSET_PREFIX = "7140dibo"  # liked tweets, quote tweets, list tweets: pages by position


def b36(n):
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while n:
        n, r = divmod(n, 36)
        out = digits[r] + out
    return out or "0"


def b32_token(offset):
    """A followers/following pagination token as X's look: 16 base-32 characters."""
    return base64.b32encode(struct.pack(">Q", offset ^ 0x5F3759DF2A1B3C4D)).decode()[:13] + "ZZZ"


def b32_offset(token):
    if len(token) != 16 or not token.endswith("ZZZ"):
        raise ValueError
    try:
        return struct.unpack(">Q", base64.b32decode(token[:13] + "==="))[0] ^ 0x5F3759DF2A1B3C4D
    except (binascii.Error, struct.error):
        raise ValueError


def max_results(query, low, high, default):
    """(count, None) or (None, X's 400)."""
    raw = query.get("max_results")
    if raw is None:
        return default, None
    try:
        count = int(raw)
    except ValueError:
        count = None
    if count is None or not low <= count <= high:
        return None, v2_resp(400, invalid_request("max_results", [raw], "The `max_results` query parameter value [%s] is not between %d and %d" % (raw, low, high)))
    return count, None


def bad_token(name, token):
    return v2_resp(400, invalid_request(name, [token], "The `%s` query parameter value [%s] is not valid" % (name, token)))


def v2_timeline(ctx, tweets, low, high, default, token_names):
    query = ctx["query"]
    count, error = max_results(query, low, high, default)
    if error:
        return error
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
            return bad_token(name, token)
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


def offset_page(ctx, items, low, high, default, users=False):
    """A page of tweets (or users) by position, paged with `pagination_token`; meta has
    result_count and next_token only, as X's liked tweets, quote tweets, list tweets and
    followers pages do."""
    query = ctx["query"]
    count, error = max_results(query, low, high, default)
    if error:
        return error
    offset = 0
    token = query.get("pagination_token")
    if token is not None:
        try:
            if users:
                offset = b32_offset(token)
            elif token.startswith(OFFSET_PREFIX):
                offset = int(token[len(OFFSET_PREFIX):], 36)
            else:
                raise ValueError
        except ValueError:
            return bad_token("pagination_token", token)
        if offset <= 0:
            return bad_token("pagination_token", token)
    page = items[offset:offset + count]
    if not page:
        return v2_resp(200, {"meta": {"result_count": 0}})
    meta = {"result_count": len(page)}
    if offset + count < len(items):
        meta["next_token"] = b32_token(offset + count) if users else OFFSET_PREFIX + b36(offset + count)
    if users:
        return v2_resp(200, v2_users_envelope(page, query, meta))
    return v2_resp(200, v2_envelope(page, Fields(query), meta))


def excluding(ctx, tweets):
    """Tweets without the kinds `exclude` names (retweets, replies), or X's 400."""
    raw = ctx["query"].get("exclude")
    if raw is None:
        return tweets, None
    kinds = raw.split(",")
    for kind in kinds:
        if kind not in ("replies", "retweets"):
            return None, v2_resp(400, invalid_request("exclude", [raw], "The `exclude` query parameter value [%s] is not one of [replies,retweets]" % kind))
    drop = {"replied_to" if k == "replies" else "retweeted" for k in kinds}
    return [t for t in tweets if not any(kind in drop for kind, _ in t.refs)], None


def check_user_id(value, parameter="id"):
    if not ID_RE.match(value):
        return v2_resp(400, invalid_request(parameter, [value], "The `%s` query parameter value [%s] does not match ^[0-9]{1,19}$" % (parameter, value)))
    return None


def r_v2_me(handler, ctx):
    return v2_resp(200, v2_users_envelope([USERS[ctx["auth"].user_id]], ctx["query"], single=True))


USERNAME_RE = re.compile(r"^[A-Za-z0-9_]{1,15}$")


def r_v2_user_by_username(handler, ctx):
    name = unquote(ctx["match"].group(1))
    if not USERNAME_RE.match(name):
        return v2_resp(400, invalid_request("username", [name], "The `username` query parameter value [%s] does not match ^[A-Za-z0-9_]{1,15}$" % name))
    user = STATE.user_by_name(name)
    if user is None:
        return v2_resp(200, {"errors": [not_found_error(name, "user", "username", "Could not find user with username: [%s]." % name)]})
    return v2_resp(200, v2_users_envelope([user], ctx["query"], single=True))


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
    return v2_resp(200, v2_users_envelope([USERS[user_id]], ctx["query"], single=True))


def lookup_list(ctx, parameter, pattern):
    """The values of the ids/usernames parameter (1 to 100, deduplicated), or X's 400."""
    raw = ctx["query"].get(parameter)
    values = split_list(raw)
    if not values:
        return None, v2_resp(400, invalid_request(parameter, [raw or ""], "The `%s` query parameter can not be empty" % parameter))
    if len(values) > 100:
        return None, v2_resp(400, invalid_request(parameter, [raw], "The number of values in the `%s` query parameter list [%d] is not between 1 and 100" % (parameter, len(values))))
    for value in values:
        if not re.match(pattern, value):
            return None, v2_resp(400, invalid_request(parameter, [raw], "The `%s` query parameter value [%s] does not match %s" % (parameter, value, pattern)))
    unique = []
    for value in values:
        if value.lower() not in [u.lower() for u in unique]:
            unique.append(value)
    return unique, None


def r_v2_users(handler, ctx):
    ids, error = lookup_list(ctx, "ids", "^[0-9]{1,19}$")
    if error:
        return error
    found, errors = [], []
    for value in ids:
        if value in USERS:
            found.append(USERS[value])
        else:
            errors.append(not_found_error(value, "user", "ids", "Could not find user with ids: [%s]." % value))
    return v2_resp(200, v2_users_envelope(found, ctx["query"], errors=errors))


def r_v2_users_by(handler, ctx):
    names, error = lookup_list(ctx, "usernames", "^[A-Za-z0-9_]{1,15}$")
    if error:
        return error
    found, errors = [], []
    for value in names:
        user = STATE.user_by_name(value)
        if user is not None:
            found.append(user)
        else:
            errors.append(not_found_error(value, "user", "usernames", "Could not find user with usernames: [%s]." % value))
    return v2_resp(200, v2_users_envelope(found, ctx["query"], errors=errors))


def r_v2_followers(handler, ctx):
    user_id, answer = path_user(ctx)
    if answer:
        return answer
    return offset_page(ctx, [USERS[u] for u in followers_of(user_id)], 1, 1000, 100, users=True)


def r_v2_following(handler, ctx):
    user_id, answer = path_user(ctx)
    if answer:
        return answer
    return offset_page(ctx, [USERS[u] for u in following_of(user_id)], 1, 1000, 100, users=True)


def r_v2_user_tweets(handler, ctx):
    user_id, answer = path_user(ctx)
    if answer:
        return answer
    tweets, error = excluding(ctx, STATE.tweets_of(user_id))
    return error or v2_timeline(ctx, tweets, 5, 100, 10, ["pagination_token"])


def r_v2_mentions(handler, ctx):
    user_id, answer = path_user(ctx)
    if answer:
        return answer
    return v2_timeline(ctx, STATE.mentions_of(user_id), 5, 100, 10, ["pagination_token"])


def r_v2_liked(handler, ctx):
    user_id, answer = path_user(ctx)
    if answer:
        return answer
    return offset_page(ctx, STATE.liked_by(user_id), 5, 100, 100)


def r_v2_home(handler, ctx):
    user_id = ctx["match"].group(1)
    if user_id != ctx["auth"].user_id:
        return v2_resp(403, V2_FORBIDDEN)
    tweets, error = excluding(ctx, STATE.home_of(user_id))
    return error or v2_timeline(ctx, tweets, 1, 100, 100, ["pagination_token"])


def r_v2_tweet(handler, ctx):
    tweet_id = ctx["match"].group(1)
    if not ID_RE.match(tweet_id):
        return v2_resp(400, invalid_request("id", [tweet_id], "The `id` query parameter value [%s] does not match ^[0-9]{1,19}$" % tweet_id))
    tweet = STATE.find_tweet(tweet_id)
    if tweet is None:
        return v2_resp(200, {"errors": [not_found_error(tweet_id, "tweet", "id", "Could not find tweet with id: [%s]." % tweet_id)]})
    return v2_resp(200, v2_envelope([tweet], Fields(ctx["query"]), single=True))


def r_v2_tweets(handler, ctx):
    ids, error = lookup_list(ctx, "ids", "^[0-9]{1,19}$")
    if error:
        return error
    found, errors = [], []
    for value in ids:
        tweet = STATE.find_tweet(value)
        if tweet:
            found.append(tweet)
        else:
            errors.append(not_found_error(value, "tweet", "ids", "Could not find tweet with ids: [%s]." % value))
    return v2_resp(200, v2_envelope(found, Fields(ctx["query"]), errors=errors))


def r_v2_quote_tweets(handler, ctx):
    tweet_id = ctx["match"].group(1)
    if not ID_RE.match(tweet_id):
        return v2_resp(400, invalid_request("id", [tweet_id], "The `id` query parameter value [%s] does not match ^[0-9]{1,19}$" % tweet_id))
    tweets, error = excluding(ctx, STATE.quotes_of(tweet_id))
    return error or offset_page(ctx, tweets, 10, 100, 10)


def r_v2_list_tweets(handler, ctx):
    list_id = ctx["match"].group(1)
    if not ID_RE.match(list_id):
        return v2_resp(400, invalid_request("id", [list_id], "The `id` query parameter value [%s] does not match ^[0-9]{1,19}$" % list_id))
    if list_id != LIST_ID:
        return v2_resp(200, {"errors": [not_found_error(list_id, "list", "id", "Could not find list with id: [%s]." % list_id)]})
    return offset_page(ctx, STATE.list_tweets(), 1, 100, 100)


SEARCH_OPERATOR = re.compile(r"^(from|to|conversation_id|is|has|lang):(.+)$", re.IGNORECASE)


def search_match(tweet, operator, value):
    if operator == "from":
        return tweet.author == value
    if operator == "to":
        return tweet.reply_user == value
    if operator == "conversation_id":  # the replies: the tweet that started it is not one
        return tweet.conversation == value and str(tweet.id) != value
    if operator == "lang":
        return tweet.lang == value
    if operator == "is":
        kind = {"retweet": "retweeted", "reply": "replied_to", "quote": "quoted"}.get(value)
        return kind is not None and tweet.ref(kind) is not None
    if operator == "has":
        if value == "media":
            return bool(tweet.media)
        kind = {"links": "url", "mentions": "mention", "hashtags": "hashtag"}.get(value)
        return any(e["kind"] == kind for e in tweet.ents)
    return False


def search_filter(query_text):
    """The tweets matching a query: words (case-insensitive, in the text), from:, to:,
    conversation_id:, lang:, is:retweet|reply|quote, has:media|links|mentions|hashtags, each
    negated by a leading "-"; all must hold."""
    terms, operators = [], []
    for term in query_text.split():
        negated = term.startswith("-") and len(term) > 1
        body = term[1:] if negated else term
        m = SEARCH_OPERATOR.match(body)
        if m:
            operator, value = m.group(1).lower(), m.group(2)
            if operator in ("from", "to"):
                user = STATE.user_by_name(value.lstrip("@"))
                if user is None:
                    if negated:
                        continue
                    return None
                value = user["id"]
            elif operator in ("is", "has", "lang"):
                value = value.lower()
            operators.append((negated, operator, value))
        else:
            terms.append((negated, body.casefold()))
    with STATE.lock:
        pool = list(STATE.tweets)
    return [t for t in pool if all(search_match(t, op, value) != negated for negated, op, value in operators)
            and all((term in t.text.casefold()) != negated for negated, term in terms)]


def r_v2_search(handler, ctx):
    query_text = ctx["query"].get("query")
    if not query_text or not query_text.strip():
        return v2_resp(400, invalid_request("query", [query_text or ""], "The `query` query parameter can not be empty"))
    tweets = search_filter(query_text) or []
    return v2_timeline(ctx, tweets, 10, 100, 10, ["next_token", "pagination_token"])


def full_archive_gate():
    return None if STATE.args.full_archive else v2_resp(403, V2_CLIENT_NOT_ENROLLED)


def r_v2_search_all(handler, ctx):
    query_text = ctx["query"].get("query")
    if not query_text or not query_text.strip():
        return v2_resp(400, invalid_request("query", [query_text or ""], "The `query` query parameter can not be empty"))
    tweets = search_filter(query_text) or []
    return v2_timeline(ctx, tweets, 10, 500, 10, ["next_token", "pagination_token"])


GRANULARITY = {"minute": 60, "hour": 3600, "day": 86400}


def r_v2_counts(handler, ctx):
    """Tweet counts per minute, hour (default) or day over the last 7 days. The fake's "now" for
    this is 30 s after its newest tweet (the fixtures are from 2024), so every fixture tweet is
    recent; X's first bucket starts at start_time, the others on the granularity's boundaries,
    and the last ends at end_time."""
    query = ctx["query"]
    query_text = query.get("query")
    if not query_text or not query_text.strip():
        return v2_resp(400, invalid_request("query", [query_text or ""], "The `query` query parameter can not be empty"))
    granularity = query.get("granularity", "hour")
    if granularity not in GRANULARITY:
        return v2_resp(400, invalid_request("granularity", [granularity], "The `granularity` query parameter value [%s] is not one of [minute,hour,day]" % granularity))
    for name in ("since_id", "until_id"):
        if name in query and not ID_RE.match(query[name]):
            return v2_resp(400, invalid_request(name, [query[name]], "The `%s` query parameter value [%s] does not match ^[0-9]{1,19}$" % (name, query[name])))
    for name in ("start_time", "end_time"):
        if name in query and parse_iso(query[name]) is None:
            return v2_resp(400, invalid_request(name, [query[name]], "Invalid '%s':'%s'. '%s' must be a valid RFC 3339 date-time" % (name, query[name], name)))
    with STATE.lock:
        newest = max((t.created for t in STATE.tweets), default=BASE_TIME)
    end = parse_iso(query["end_time"]) if "end_time" in query else newest + 30
    start = parse_iso(query["start_time"]) if "start_time" in query else end - 7 * 86400
    if start >= end:
        return v2_resp(400, invalid_request("start_time", [query.get("start_time", iso_date(start))],
                                            "Invalid 'start_time':'%s'. 'start_time' must be before 'end_time'" % query.get("start_time", iso_date(start))))
    since = int(query["since_id"]) if "since_id" in query else None
    until = int(query["until_id"]) if "until_id" in query else None
    times = sorted(t.created for t in (search_filter(query_text) or [])
                   if (since is None or t.id > since) and (until is None or t.id < until))
    step = GRANULARITY[granularity]
    data, total, left = [], 0, start
    while left < end:
        right = min((left // step + 1) * step, end)
        count = bisect.bisect_left(times, right) - bisect.bisect_left(times, left)
        data.append({"end": iso_date(right), "start": iso_date(left), "tweet_count": count})
        total += count
        left = right
    return v2_resp(200, {"data": data, "meta": {"total_tweet_count": total}})


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
    reply_to = quote = None
    reply = data.get("reply")
    if isinstance(reply, dict) and reply.get("in_reply_to_tweet_id") is not None:
        reply_to = STATE.find_tweet(reply.get("in_reply_to_tweet_id"))
        if reply_to is None or reply_to.hidden:
            return v2_resp(403, V2_REPLY_GONE)
    if data.get("quote_tweet_id") is not None:
        quote = STATE.find_tweet(data.get("quote_tweet_id"))
        if quote is None or quote.hidden:
            return v2_resp(403, V2_FORBIDDEN)
    tweet = STATE.post(ctx["auth"].user_id, text, reply_to, quote)
    if tweet is None:
        return v2_resp(403, V2_DUPLICATE)
    return v2_resp(201, {"data": {"id": str(tweet.id), "text": tweet.text, "edit_history_tweet_ids": [str(tweet.id)]}})


def r_v2_delete(handler, ctx):
    tweet_id = ctx["match"].group(1)
    with STATE.lock:
        tweet = STATE.find_tweet(tweet_id)
        if tweet is None or tweet.hidden or tweet.author != ctx["auth"].user_id:
            return v2_resp(403, V2_FORBIDDEN)
        STATE.delete(tweet)
    return v2_resp(200, {"data": {"deleted": True}})


# --- v1.1 -------------------------------------------------------------------------------------
def truthy(value):
    return (value or "").lower() in ("1", "true", "t", "yes")


def falsy(value):
    return (value or "").lower() in ("0", "false", "f", "no")


def v1_user_small(user):
    return {"id": int(user["id"]), "id_str": user["id"], "name": user["name"], "screen_name": user["username"]}


def v1_sizes(width, height):
    def fit(limit):
        scale = min(1.0, float(limit) / max(width, height))
        return {"w": int(round(width * scale)), "h": int(round(height * scale)), "resize": "fit"}
    return {"thumb": {"w": 150, "h": 150, "resize": "crop"}, "small": fit(680), "medium": fit(1200), "large": fit(2048)}


def v1_media(tweet, item, start, end, extended, query):
    """A v1.1 media entity; in `entities` (not `extended_entities`) even a video is a "photo"."""
    image = item.get("url") or item["preview_image_url"]
    out = {"id": item["id"], "id_str": str(item["id"]), "indices": [start, end],
           "media_url": "http://" + image[len("https://"):], "media_url_https": image, "url": tweet.media_link,
           "display_url": "pic.x.com/" + tweet.media_link[13:], "expanded_url": item["expanded_url"],
           "type": item["type"] if extended else "photo", "sizes": v1_sizes(item["width"], item["height"])}
    if truthy(query.get("include_ext_alt_text")):
        out["ext_alt_text"] = item.get("alt_text")
    if extended and item["type"] != "photo":
        divisor = math.gcd(item["width"], item["height"])
        info = {"aspect_ratio": [item["width"] // divisor, item["height"] // divisor]}
        if "duration_ms" in item:
            info["duration_millis"] = item["duration_ms"]
        info["variants"] = [dict({"bitrate": v["bit_rate"]} if "bit_rate" in v else {},
                                 content_type=v["content_type"], url=v["url"]) for v in item["variants"]]
        out["video_info"] = info
    return out


def v1_entities(tweet, visible, query):
    """`entities` and, for media, `extended_entities`, for the first `visible` characters."""
    shown = [e for e in tweet.ents if e["end"] <= visible]
    entities = {"hashtags": [{"text": e["tag"], "indices": [e["start"], e["end"]]} for e in shown if e["kind"] == "hashtag"],
                "symbols": [],
                "user_mentions": [dict(v1_user_small(e["user"]), indices=[e["start"], e["end"]])
                                  for e in shown if e["kind"] == "mention"],
                "urls": [{"url": e["url"], "expanded_url": e["expanded_url"], "display_url": e["display_url"],
                          "indices": [e["start"], e["end"]]} for e in shown if e["kind"] == "url" and "media_key" not in e]}
    link = next((e for e in shown if "media_key" in e), None)
    if link is None:
        return entities, None
    entities["media"] = [v1_media(tweet, tweet.media[0], link["start"], link["end"], False, query)]
    return entities, {"media": [v1_media(tweet, item, link["start"], link["end"], True, query) for item in tweet.media]}


def v1_tweet(tweet, query, embedded=False):
    out = {"created_at": v1_date(tweet.created), "id": tweet.id, "id_str": str(tweet.id)}
    if (query.get("tweet_mode") or "").lower() == "extended":
        # v1.1 knows no long posts: even its full_text is the cut `text`.
        out["full_text"] = short_text(tweet.text)
        out["truncated"] = False
        end = len(out["full_text"])
        if tweet.media_link and out["full_text"].endswith(" " + tweet.media_link):
            end -= len(tweet.media_link) + 1
        out["display_text_range"] = [tweet.reply_prefix, end]
        emitted = out["full_text"]
    elif len(tweet.text) > 140:
        out["text"] = emitted = tweet.text[:139] + "\u2026"
        out["truncated"] = True
    else:
        out["text"] = emitted = tweet.text
        out["truncated"] = False
    if not falsy(query.get("include_entities")):
        visible = len(emitted) if tweet.text.startswith(emitted) else len(emitted) - 1
        out["entities"], extended = v1_entities(tweet, visible, query)
        if extended:
            out["extended_entities"] = extended
    out["source"] = '<a href="https://github.com/fake-x-api" rel="nofollow">Fake X API</a>'
    parent = tweet.ref("replied_to")
    parent_user = USERS.get(tweet.reply_user) if tweet.reply_user else None
    out.update({"in_reply_to_status_id": int(parent) if parent else None, "in_reply_to_status_id_str": parent,
                "in_reply_to_user_id": int(parent_user["id"]) if parent_user else None,
                "in_reply_to_user_id_str": parent_user["id"] if parent_user else None,
                "in_reply_to_screen_name": parent_user["username"] if parent_user else None})
    user = USERS[tweet.author]
    out["user"] = {"id": int(user["id"]), "id_str": user["id"]} if truthy(query.get("trim_user")) else v1_user_small(user)
    out.update({"geo": None, "coordinates": None, "place": None, "contributors": None})
    retweeted = STATE.find_tweet(tweet.ref("retweeted")) if tweet.ref("retweeted") else None
    if retweeted is not None and not embedded:
        out["retweeted_status"] = v1_tweet(retweeted, query, embedded=True)
    quoted_id = tweet.ref("quoted")
    out["is_quote_status"] = quoted_id is not None
    if quoted_id:
        quoted = STATE.find_tweet(quoted_id)
        out["quoted_status_id"] = int(quoted_id)
        out["quoted_status_id_str"] = quoted_id
        if quoted is not None:
            username = USERS[quoted.author]["username"]
            out["quoted_status_permalink"] = {
                "url": "https://t.co/Q" + b36(int(quoted_id))[-9:],
                "expanded": "https://twitter.com/%s/status/%s" % (username, quoted_id),
                "display": ("twitter.com/%s/status/%s" % (username, quoted_id))[:25] + "\u2026"}
            if not embedded:
                out["quoted_status"] = v1_tweet(quoted, query, embedded=True)
    out.update({"retweet_count": tweet.metrics["retweet_count"], "favorite_count": tweet.metrics["like_count"],
                "favorited": False, "retweeted": False})
    if tweet.media or any(e["kind"] == "url" for e in tweet.ents):
        out["possibly_sensitive"] = tweet.sensitive  # v1.1 sends it only for tweets with links or media
    out["lang"] = tweet.lang
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
    page = selected[:count]
    # As X does, exclude_replies and include_rts=false drop tweets after `count` were taken.
    if truthy(query.get("exclude_replies")):
        page = [t for t in page if t.ref("replied_to") is None]
    if falsy(query.get("include_rts")):
        page = [t for t in page if t.ref("retweeted") is None]
    return page, len(selected) > count, count


def r_v1_verify(handler, ctx):
    user = USERS[ctx["auth"].user_id]
    out = v1_user_small(user)
    out.update({"followers_count": len(followers_of(user["id"])), "friends_count": len(following_of(user["id"])),
                "statuses_count": STATE.user_stats(user["id"])[0], "created_at": v1_date(user["created_at"])})
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
        status["metadata"] = {"iso_language_code": t.lang, "result_type": "recent"}
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
    Route("GET", r"^/2/users/me$", "v2_me", r_v2_me, 75, bearer_ok=False, allowed=USER_PARAMS,
          expansions=USER_EXPANSIONS),
    Route("GET", r"^/2/users$", "v2_users", r_v2_users, 300, allowed=["ids"] + USER_PARAMS, expansions=USER_EXPANSIONS),
    Route("GET", r"^/2/users/by$", "v2_users_by", r_v2_users_by, 300, allowed=["usernames"] + USER_PARAMS,
          expansions=USER_EXPANSIONS),
    Route("GET", r"^/2/users/by/username/([^/]+)$", "v2_user_by_username", r_v2_user_by_username, 300,
          allowed=USER_PARAMS, expansions=USER_EXPANSIONS),
    Route("GET", r"^/2/users/([^/]+)/tweets$", "v2_user_tweets", r_v2_user_tweets, 1500, allowed=TIMELINE_PARAMS),
    Route("GET", r"^/2/users/([^/]+)/mentions$", "v2_mentions", r_v2_mentions, 450, allowed=MENTION_PARAMS),
    Route("GET", r"^/2/users/([^/]+)/liked_tweets$", "v2_liked_tweets", r_v2_liked, 75,
          allowed=PAGE_PARAMS + TWEET_EXTRA),
    Route("GET", r"^/2/users/([^/]+)/followers$", "v2_followers", r_v2_followers, 15,
          allowed=PAGE_PARAMS + USER_PARAMS, expansions=USER_EXPANSIONS),
    Route("GET", r"^/2/users/([^/]+)/following$", "v2_following", r_v2_following, 15,
          allowed=PAGE_PARAMS + USER_PARAMS, expansions=USER_EXPANSIONS),
    Route("GET", r"^/2/users/([^/]+)/timelines/reverse_chronological$", "v2_home", r_v2_home, 180,
          bearer_ok=False, allowed=TIMELINE_PARAMS),
    Route("GET", r"^/2/users/([^/]+)$", "v2_user", r_v2_user, 300, allowed=USER_PARAMS, expansions=USER_EXPANSIONS),
    Route("GET", r"^/2/tweets/search/recent$", "v2_search", r_v2_search, 450, allowed=SEARCH_PARAMS),
    Route("GET", r"^/2/tweets/search/all$", "v2_search_all", r_v2_search_all, 300, allowed=SEARCH_PARAMS,
          user_ok=False, gate=full_archive_gate),
    Route("GET", r"^/2/tweets/counts/recent$", "v2_counts_recent", r_v2_counts, 300, allowed=COUNT_PARAMS,
          user_ok=False),
    Route("GET", r"^/2/tweets$", "v2_tweets", r_v2_tweets, 300, allowed=["ids"] + TWEET_EXTRA),
    Route("GET", r"^/2/tweets/([^/]+)/quote_tweets$", "v2_quote_tweets", r_v2_quote_tweets, 75,
          allowed=PAGE_PARAMS + ["exclude"] + TWEET_EXTRA),
    Route("GET", r"^/2/tweets/([^/]+)$", "v2_tweet", r_v2_tweet, 300, allowed=TWEET_EXTRA),
    Route("GET", r"^/2/lists/([^/]+)/tweets$", "v2_list_tweets", r_v2_list_tweets, 900,
          allowed=PAGE_PARAMS + TWEET_EXTRA),
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
    add_common_arguments(parser, consumer=('fake-consumer-key', 'fake-consumer-secret'), token=('1001-fakeaccesstoken', 'fake-access-token-secret'))
    parser.add_argument("--bearer-token", default="fake-bearer-token")
    parser.add_argument("--tweets", type=int, default=250)
    parser.add_argument("--full-archive", action="store_true",
                        help="the app has full-archive access: /2/tweets/search/all answers (with a bearer token)")
    args = parser.parse_args()
    STATE = State(args)
    serve(Handler, args.host, args.lifetime)


if __name__ == "__main__":
    main()

