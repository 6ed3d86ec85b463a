"""An independent X webhook sender, standard library only, for tweets webhook serve's tests.

It computes what X's documentation (x-api/webhooks/introduction.mdx, quickstart.mdx) says X
computes, with Python's hmac, hashlib and base64, and nothing from the package:

  CRC:        GET <url>?crc_token=T  ->  200 {"response_token": "sha256=" + b64(HMAC-SHA256(secret, T))}
  Signature:  X-Twitter-Webhooks-Signature: "sha256=" + b64(HMAC-SHA256(secret, raw body))

  python3 webhook_sender.py --url http://127.0.0.1:PORT/webhook --secret SECRET --max-body N [--header NAME]

It checks the CRC answers for random tokens, posts signed events (Account Activity and X
Activity API shapes, and one of no known shape), then posts what must be refused: unsigned,
wrongly signed (another secret, another body, malformed, repeated header), oversized (past
N bytes, signed) and truncated (a Content-Length the body never reaches; a signed body cut
short). It prints one JSON object: the CRC tokens that were answered wrongly, each POST's
status by name, the signed events it sent (as X would deliver them), and the marker that every
refused body carries, which must appear nowhere in the receiver's output or logs.
"""
import argparse
import base64
import hashlib
import hmac
import http.client
import json
import random
import secrets
import socket
import string
import urllib.parse

MARKER = "REFUSED-BODY-" + secrets.token_hex(8)


def sign(secret, message):
    digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()
    return "sha256=" + base64.b64encode(digest).decode()


def request(host, port, method, path, body=b"", headers=()):
    connection = http.client.HTTPConnection(host, port, timeout=20)
    # putrequest/putheader: repeated headers go out as given.
    connection.putrequest(method, path, skip_accept_encoding=True)
    for name, value in headers:
        connection.putheader(name, value)
    if method == "POST":
        connection.putheader("Content-Type", "application/json")
        connection.putheader("Content-Length", str(len(body)))
    connection.endheaders(body if method == "POST" else None)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, data


def raw_exchange(host, port, data, shut_write):
    """Sends raw bytes; with shut_write, closes our side (the body then never arrives whole).
    Returns the status line's code, or None when the server answered nothing."""
    with socket.create_connection((host, port), timeout=20) as sock:
        sock.sendall(data)
        if shut_write:
            sock.shutdown(socket.SHUT_WR)
        answer = b""
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                answer += chunk
        except (socket.timeout, ConnectionResetError):
            pass
    if not answer.startswith(b"HTTP/1.1 "):
        return None
    return int(answer[9:12])


def random_token():
    alphabet = string.ascii_letters + string.digits + "+/=-_.~ %&?#"
    return "".join(random.choice(alphabet) for _ in range(random.randint(1, 96)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--secret", required=True)
    parser.add_argument("--max-body", type=int, required=True)
    parser.add_argument("--tokens", type=int, default=25)
    # X-Twitter-Webhooks-Signature-OAuth2 for apps that sign with their OAuth 2.0 client secret.
    parser.add_argument("--header", default="X-Twitter-Webhooks-Signature")
    args = parser.parse_args()
    url = urllib.parse.urlsplit(args.url)
    host, port, path = url.hostname, url.port, url.path or "/"

    wrong_crc = []
    for _ in range(args.tokens):
        token = random_token()
        status, data = request(host, port, "GET", path + "?" + urllib.parse.urlencode({"crc_token": token}))
        expected = {"response_token": sign(args.secret, token.encode())}
        try:
            answered = json.loads(data)
        except ValueError:
            answered = None
        if status != 200 or answered != expected:
            wrong_crc.append({"token": token, "status": status, "body": data.decode("utf-8", "replace")})

    events = [
        {
            "for_user_id": "2244994945",
            "tweet_create_events": [
                {"id_str": "1001", "text": "first", "created_at": "Wed Oct 10 20:19:24 +0000 2018",
                 "user": {"id_str": "2244994945", "screen_name": "XDevelopers", "name": "Developers"}},
                {"id_str": "1002", "text": "second \u00e9\u2028", "user": {"id_str": "6253282", "screen_name": "API", "name": "API"}},
            ],
        },
        {
            "data": {
                "event_uuid": "2080761390344937796", "filter": {"user_id": "1111111111111111111"}, "event_type": "post.create",
                "tag": "posts",
                "payload": {"id": "2080761390344937796", "text": "Hello from the Activity API", "author_id": "1111111111111111111",
                            "created_at": "2026-07-24T21:05:48.000Z"},
                "includes": {"users": [{"id": "1111111111111111111", "username": "ExampleUser", "name": "Example User"}]},
            }
        },
        {"for_user_id": "2244994945", "follow_events": [
            {"type": "follow", "created_timestamp": "1517588749178",
             "source": {"id_str": "3", "screen_name": "a", "name": "A"}, "target": {"id_str": "2244994945", "screen_name": "b", "name": "B"}}]},
        {"a_family_not_known_yet": {"something": [1, 2, 3]}},
    ]
    statuses = {}
    sent = []
    for number, event in enumerate(events):
        body = json.dumps(event).encode()
        statuses[f"signed_{number}"] = request(host, port, "POST", path, body, [(args.header, sign(args.secret, body))])[0]
        sent.append(event)

    def refused_body(extra=""):
        return json.dumps({"for_user_id": "1", "tweet_create_events": [{"id_str": "9", "text": MARKER + extra}]}).encode()

    body = refused_body()
    statuses["unsigned"] = request(host, port, "POST", path, body)[0]
    statuses["other_secret"] = request(host, port, "POST", path, body, [(args.header, sign(args.secret + "x", body))])[0]
    statuses["other_body"] = request(host, port, "POST", path, body, [(args.header, sign(args.secret, body + b" "))])[0]
    statuses["hex_not_base64"] = request(
        host, port, "POST", path, body,
        [(args.header, "sha256=" + hmac.new(args.secret.encode(), body, hashlib.sha256).hexdigest())])[0]
    statuses["no_prefix"] = request(host, port, "POST", path, body, [(args.header, sign(args.secret, body)[7:])])[0]
    statuses["repeated"] = request(
        host, port, "POST", path, body,
        [(args.header, sign(args.secret, body)), (args.header, sign(args.secret, body))])[0]
    statuses["empty_signed_as_other"] = request(host, port, "POST", path, b"", [(args.header, sign(args.secret, body))])[0]

    big = refused_body("x" * (args.max_body + 1))
    statuses["oversized"] = request(host, port, "POST", path, big, [(args.header, sign(args.secret, big))])[0]

    head = (f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
            f"{args.header}: {sign(args.secret, body)}\r\n")
    # The whole body announced, half of it sent, then our side closed.
    cut = head + f"Content-Length: {len(body)}\r\n\r\n"
    statuses["truncated"] = raw_exchange(host, port, cut.encode() + body[: len(body) // 2], shut_write=True)
    # A body cut short whose length says so: the signature (of the whole) no longer matches.
    half = body[: len(body) // 2]
    statuses["cut_short"] = raw_exchange(host, port, (head + f"Content-Length: {len(half)}\r\n\r\n").encode() + half, shut_write=False)

    print(json.dumps({"wrong_crc": wrong_crc, "crc_checked": args.tokens, "statuses": statuses, "sent": sent, "marker": MARKER}))


if __name__ == "__main__":
    main()
