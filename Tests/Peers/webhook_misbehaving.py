"""A webhook receiver that gets X's challenge-response check (CRC) wrong on purpose, for the
sandbox's tests of the X side: a CRC is `GET PATH?crc_token=T`, answered by a good receiver
with {"response_token": "sha256=" + base64(HMAC-SHA256(consumer secret, T))}. Standard library
only. Prints "PORT <n>" once it listens (peer_server.serve).

  /right-then-wrong   the first CRC answered rightly (with --secret), every later one wrongly
  /wrong              every CRC answered with a response_token that is not the HMAC
  /silent             reads the request and never answers (holds the connection 120 s)
  /huge               200 with a body of 64 MiB, sent as fast as the client takes it
  any POST            200, body {} (an event taken)
"""
import argparse
import base64
import hashlib
import hmac
import json
import time
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qsl, urlsplit

from peer_server import read_body, serve

SECRET = b""
ANSWERED = {}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def answer(self, status, body):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        read_body(self)
        self.answer(200, b"{}")

    def do_GET(self):
        url = urlsplit(self.path)
        token = dict(parse_qsl(url.query, keep_blank_values=True)).get("crc_token", "")
        right = "sha256=" + base64.b64encode(hmac.new(SECRET, token.encode(), hashlib.sha256).digest()).decode()
        if url.path == "/right-then-wrong":
            first = ANSWERED.get(url.path) is None
            ANSWERED[url.path] = True
            self.answer(200, json.dumps({"response_token": right if first else "sha256=" + base64.b64encode(b"\0" * 32).decode()}).encode())
        elif url.path == "/wrong":
            self.answer(200, json.dumps({"response_token": "sha256=" + base64.b64encode(b"\0" * 32).decode()}).encode())
        elif url.path == "/silent":
            time.sleep(120)
        elif url.path == "/huge":
            size = 64 << 20
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(size))
            self.end_headers()
            chunk = b" " * 65536
            try:
                for _ in range(size // len(chunk)):
                    self.wfile.write(chunk)
            except OSError:
                pass  # the client hung up, as it should
        else:
            self.answer(404, b"{}")


def main():
    global SECRET
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--lifetime", type=float, default=300)
    parser.add_argument("--secret", required=True)
    args = parser.parse_args()
    SECRET = args.secret.encode()
    serve(Handler, args.host, args.lifetime)


if __name__ == "__main__":
    main()
