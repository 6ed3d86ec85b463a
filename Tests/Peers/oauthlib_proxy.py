"""A reverse proxy on 127.0.0.1 in front of the X sandbox served over loopback (XSandbox, the
package's one X emulator), that checks every OAuth 1.0a signature the tests send with Python's
oauthlib: code this package did not write. The sandbox verifies with the package's own
OAuthVerifier, which shares its base-string code with the signer, so it cannot catch a
base-string defect; this proxy can.

For each request it:
  1. computes oauthlib's verdict on the signature (collect_parameters, normalize_parameters,
     base_string_uri, signature_base_string, _sign_hmac / sign_plaintext) for the URL the client
     really used: "http://" + Host + the raw request target. The secrets come from the
     sandbox's control API (/_control/secret, with --control-token in X-Sandbox-Control-Token),
     as a provider would look them up;
  2. forwards the request unchanged (Host included) to --backend;
  3. reads the sandbox's answer head and its verdict (X-Sandbox-Verdict: verified, or the
     problem it refused: signature_invalid, timestamp_refused, ...), which it removes;
  4. if the two disagree on the signature (one accepts what the other refuses), answers 418
     with {"oauthlib_disagrees": ...} so that the test fails at once; otherwise relays the
     answer byte for byte as it comes: a reset stays a reset, a short body stays short.
GET /_oauthlib/stats: {"checked", "valid", "invalid", "disagreements": [...]}.

Standard library plus oauthlib only. Prints "PORT <n>"; exits when stdin closes or --lifetime
ends."""
import argparse
import json
import socket
import struct
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qsl, quote, urlsplit

from oauthlib.common import Request as OAuthRequest
from oauthlib.common import safe_string_equals
from oauthlib.oauth1.rfc5849 import signature as oauth_sig

from peer_server import read_body, serve

VERDICT = "x-sandbox-verdict"
HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade", "expect",
              "content-length"}
ALGORITHMS = {"HMAC-SHA1": "SHA-1", "HMAC-SHA256": "SHA-256", "HMAC-SHA512": "SHA-512"}

LOCK = threading.Lock()
STATS = {"checked": 0, "valid": 0, "invalid": 0, "disagreements": []}
BACKEND = None
CONTROL_TOKEN = ""


SECRETS = {}


def secret(**query):
    """A secret from the sandbox's control API (kept: a key's secret never changes), or None for
    an unknown key."""
    key = tuple(sorted(query.items()))
    with LOCK:
        if key in SECRETS:
            return SECRETS[key]
    url = "http://%s/_control/secret?%s" % (BACKEND, "&".join("%s=%s" % (k, quote(v, safe="")) for k, v in query.items()))
    try:
        request = urllib.request.Request(url, headers={"X-Sandbox-Control-Token": CONTROL_TOKEN})
        with urllib.request.urlopen(request, timeout=10) as answer:
            value = json.load(answer)["secret"]
    except Exception:
        return None
    with LOCK:
        SECRETS[key] = value
    return value


def oauthlib_verdict(method, uri, path, headers, body):
    """'valid', 'invalid', or None when the request carries no OAuth 1.0a signature oauthlib can
    check (no OAuth parameters, an unknown consumer or token, an unsupported method)."""
    header = headers.get("Authorization") or ""
    oauth_header = {"Authorization": header} if header.strip().lower().startswith("oauth ") else {}
    form = (headers.get("Content-Type") or "").split(";")[0].strip().lower() == "application/x-www-form-urlencoded"
    try:
        form_text = body.decode("utf-8") if form else None
        request = OAuthRequest(uri, http_method=method, body=form_text, headers=oauth_header)
        everything = oauth_sig.collect_parameters(uri_query=request.uri_query, body=form_text, headers=oauth_header,
                                                  exclude_oauth_signature=False)
        signed = oauth_sig.collect_parameters(uri_query=request.uri_query, body=form_text, headers=oauth_header,
                                              exclude_oauth_signature=True)
    except (ValueError, UnicodeDecodeError):
        return "invalid" if oauth_header else None
    oauth = dict((name, value) for name, value in everything if name.startswith("oauth_"))
    if not oauth_header and not oauth:
        return None
    signature_method = oauth.get("oauth_signature_method", "")
    if "oauth_signature" not in oauth or (signature_method not in ALGORITHMS and signature_method != "PLAINTEXT"):
        return None
    consumer_secret = secret(consumer=oauth.get("oauth_consumer_key", ""))
    if consumer_secret is None:
        return None
    token = oauth.get("oauth_token")
    if path.endswith("/oauth/request_token") or not token:
        token_secret = ""
    else:
        token_secret = secret(token=token, kind="request" if path.endswith("/oauth/access_token") else "access")
        if token_secret is None:
            return None
    if signature_method == "PLAINTEXT":
        expected = oauth_sig.sign_plaintext(consumer_secret, token_secret)
    else:
        base = oauth_sig.signature_base_string(method, oauth_sig.base_string_uri(uri),
                                               oauth_sig.normalize_parameters(signed))
        expected = oauth_sig._sign_hmac(ALGORITHMS[signature_method], base, consumer_secret, token_secret)
    return "valid" if safe_string_equals(expected, oauth["oauth_signature"]) else "invalid"


def disagreement(ours, theirs):
    """Whether oauthlib's verdict and the sandbox's contradict each other on the signature."""
    if ours is None or theirs is None:
        return False
    return (ours == "invalid" and theirs == "verified") or (ours == "valid" and theirs == "signature_invalid")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def handle_any(self):
        self.close_connection = True
        target = self.path
        if target == "/_oauthlib/stats":
            with LOCK:
                body = json.dumps(STATS).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        body = read_body(self)
        path = urlsplit(target).path
        uri = "http://" + (self.headers.get("Host") or "") + target
        ours = None if path.startswith("/_control/") else oauthlib_verdict(self.command, uri, path, self.headers, body)
        if ours is not None:
            with LOCK:
                STATS["checked"] += 1
                STATS[ours] += 1

        host, port = BACKEND.rsplit(":", 1)
        upstream = socket.create_connection((host, int(port)), timeout=300)
        lines = ["%s %s HTTP/1.1" % (self.command, target)]
        lines += ["%s: %s" % (name, value) for name, value in self.headers.items() if name.lower() not in HOP_BY_HOP]
        lines += ["Content-Length: %d" % len(body), "Connection: close", "", ""]
        upstream.sendall("\r\n".join(lines).encode("latin-1") + body)

        head = b""
        try:
            while b"\r\n\r\n" not in head:
                chunk = upstream.recv(65536)
                if not chunk:
                    break
                head += chunk
        except ConnectionResetError:
            return self.reset()
        if b"\r\n\r\n" not in head:
            return self.reset()
        head, rest = head.split(b"\r\n\r\n", 1)
        status_line, *fields = head.decode("latin-1").split("\r\n")
        theirs = next((value.strip() for name, _, value in (f.partition(":") for f in fields) if name.lower() == VERDICT), None)
        fields = [f for f in fields if f.partition(":")[0].lower() != VERDICT]

        if disagreement(ours, theirs):
            upstream.close()
            report = {"method": self.command, "url": uri, "oauthlib": ours, "sandbox": theirs}
            with LOCK:
                STATS["disagreements"].append(report)
            answer = json.dumps({"oauthlib_disagrees": report}).encode()
            self.send_response(418)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)
            return

        self.wfile.write(("\r\n".join([status_line] + fields) + "\r\n\r\n").encode("latin-1") + rest)
        self.wfile.flush()
        try:
            while True:
                chunk = upstream.recv(65536)
                if not chunk:
                    break
                self.wfile.write(chunk)
                self.wfile.flush()
        except ConnectionResetError:
            return self.reset()
        finally:
            upstream.close()

    def reset(self):
        """Drops the client's connection with a TCP reset, as the sandbox dropped ours."""
        try:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
        except OSError:
            pass

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = handle_any


def main():
    global BACKEND, CONTROL_TOKEN
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--lifetime", type=float, default=3600)
    parser.add_argument("--backend", required=True, help="the sandbox's HOST:PORT")
    parser.add_argument("--control-token", required=True, help="the token of the sandbox's control API")
    args = parser.parse_args()
    BACKEND = args.backend
    CONTROL_TOKEN = args.control_token
    serve(Handler, args.host, args.lifetime)


if __name__ == "__main__":
    main()
