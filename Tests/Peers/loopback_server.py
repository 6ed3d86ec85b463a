"""A small HTTP/1.1 server on 127.0.0.1 (or ::1) for the transport tests. Standard library only.

Prints "PORT <n>" once it listens, serves until its lifetime ends or its stdin closes (the
test process is gone), then exits on its own.

  /echo             200, JSON: method, path, raw query, headers, body (and its length and SHA-256)
  /status/<code>    that status; ?header=Name:Value adds headers; ?body=text sets the body
  /slow?seconds=S   waits S seconds, then 200
  /drop             promises 1000 bytes, sends 10, closes the connection
  /etag             ETag "v1"; answers 304 to If-None-Match: "v1"
  /stream?lines=N&interval=S   N lines, one chunk each, S seconds apart (chunked); with
                    &gate=G, the lines after the first wait until /release?gate=G is asked
                    (at most 60 s), and each says whether the release came: "released"
  /release?gate=G   opens the gate G of a /stream
  /redirect?status=S&to=URL    that redirect, to be handed back, not followed
  /repeated         two Link headers and two X-Dup headers, in order
  /huge-header      a 2 MiB header line
  /many-headers     20,000 header lines of 100 bytes (2 MB of head)
  /stall-head?seconds=S   the status line, then S seconds of silence (60 by default)
  /firehose?id=I&seconds=S   64 KiB chunks as fast as the client takes them, for S seconds
                    (or until it hangs up, or 96 MiB are written: &max_bytes=N); each byte is its offset mod 251, so order can be checked
  /2/tweets/search/stream   the same with lines of posts as X's filtered stream sends them (id "posts")
  /noline/2/tweets/search/stream   4 MiB of one line that never ends
  /written?id=I     JSON: how many body bytes /firehose?id=I has written so far

--tls CERT KEY serves HTTPS with that certificate.
"""
import argparse
import hashlib
import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler
from peer_server import read_body, serve
from urllib.parse import parse_qsl, urlsplit

# Bytes each /firehose has handed to the kernel, by its id.
WRITTEN = {}
PATTERN = bytes(n % 251 for n in range(251 * 262))
# 64 KB of filtered-stream lines: one post each, as X sends them.
POSTS = (json.dumps({"data": {"id": "1800000000000000001", "text": "x" * 200, "edit_history_tweet_ids": ["1800000000000000001"]},
                     "matching_rules": [{"id": "1", "tag": "t"}]}) + "\r\n").encode() * 220


GATES = {}
GATES_LOCK = threading.Lock()


def gate(name):
    """The event of gate `name`, made on first use by either side."""
    with GATES_LOCK:
        return GATES.setdefault(name, threading.Event())


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes; without this, Nagle's algorithm and the
    # client's delayed ACK add ~40 ms to every response on loopback.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def reply(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if status not in (204, 304):
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if status not in (204, 304):
            self.wfile.write(body)

    def handle_any(self):
        url = urlsplit(self.path)
        query = parse_qsl(url.query, keep_blank_values=True)
        received = read_body(self)
        if url.path == "/echo":
            payload = {
                "method": self.command,
                "path": url.path,
                "query": url.query,
                "headers": [[k, v] for k, v in self.headers.items()],
                "body": received.decode("utf-8", "replace"),
                "body_length": len(received),
                "body_sha256": hashlib.sha256(received).hexdigest(),
            }
            self.reply(200, json.dumps(payload).encode(), [("Content-Type", "application/json")])
        elif url.path.startswith("/status/"):
            code = int(url.path.rsplit("/", 1)[1])
            headers = [tuple(v.split(":", 1)) for k, v in query if k == "header"]
            body = next((v for k, v in query if k == "body"), json.dumps({"status": code})).encode()
            self.reply(code, body, headers)
        elif url.path == "/slow":
            time.sleep(float(dict(query).get("seconds", "5")))
            self.reply(200, b"slow")
        elif url.path == "/drop":
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b"0123456789")
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True
        elif url.path == "/etag":
            if self.headers.get("If-None-Match") == '"v1"':
                self.reply(304, headers=[("ETag", '"v1"')])
            else:
                self.reply(200, b'{"version":1}', [("ETag", '"v1"'), ("Content-Type", "application/json")])
        elif url.path == "/stream":
            params = dict(query)
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            released = None
            for n in range(int(params.get("lines", "3"))):
                if n == 1 and "gate" in params:
                    # The client asks /release once it has seen the first line: if it only
                    # saw the body at its end, the release never comes and the wait times out.
                    released = gate(params["gate"]).wait(timeout=60)
                fields = {"n": n, "at": time.time()}
                if released is not None:
                    fields["released"] = released
                line = json.dumps(fields).encode() + b"\r\n"
                self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
                self.wfile.flush()
                time.sleep(float(params.get("interval", "0.1")))
            self.wfile.write(b"0\r\n\r\n")
        elif url.path == "/noline/2/tweets/search/stream":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            try:
                for _ in range(64):
                    self.wfile.write(b"%x\r\n%s\r\n" % (65536, b"x" * 65536))
                self.wfile.write(b"0\r\n\r\n")
            except OSError:
                self.close_connection = True
        elif url.path in ("/firehose", "/2/tweets/search/stream"):
            params = dict(query)
            posts = url.path != "/firehose"
            key = "posts" if posts else params.get("id", "")
            WRITTEN[key] = 0
            self.send_response(200)
            self.send_header("Content-Type", "application/json" if posts else "application/octet-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = 65536
            deadline = time.time() + float(params.get("seconds", "10" if not posts else "60"))
            # At most 96 MiB, whatever the client takes: a client that drains it (URLSession goes
            # on reading after it was cancelled) does not hold both cores for the whole time.
            most = int(params.get("max_bytes", str(96 << 20)))
            try:
                while time.time() < deadline and WRITTEN[key] < most:
                    start = WRITTEN[key] % 251
                    data = POSTS if posts else PATTERN[start:start + chunk]
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                    WRITTEN[key] += len(data)
                self.wfile.write(b"0\r\n\r\n")
            except OSError:
                self.close_connection = True
        elif url.path == "/written":
            self.reply(200, json.dumps({"written": WRITTEN.get(dict(query).get("id", ""), -1)}).encode())
        elif url.path == "/release":
            gate(dict(query).get("gate", "")).set()
            self.reply(200, b"released")
        elif url.path == "/redirect":
            params = dict(query)
            self.reply(int(params.get("status", "302")), b"", [("Location", params.get("to", "/echo"))])
        elif url.path == "/repeated":
            self.reply(200, b"ok", [("Link", "<a>; rel=next"), ("X-Dup", "1"), ("Link", "<b>; rel=prev"), ("X-Dup", "2")])
        elif url.path == "/huge-header":
            self.reply(200, b"ok", [("X-Huge", "a" * (2 << 20))])
        elif url.path == "/many-headers":
            self.reply(200, b"ok", [("X-Line-%05d" % n, "b" * 86) for n in range(20000)])
        elif url.path == "/stall-head":
            self.wfile.write(b"HTTP/1.1 200 OK\r\n")
            self.wfile.flush()
            time.sleep(float(dict(query).get("seconds", "60")))
        else:
            self.reply(404, b"not found")

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = handle_any


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--lifetime", type=float, default=120)
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    args = parser.parse_args()
    serve(Handler, args.host, args.lifetime, args.tls)


if __name__ == "__main__":
    main()
