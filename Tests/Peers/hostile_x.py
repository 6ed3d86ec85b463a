"""A hostile X for the hardening tests: it answers what a test scripts, and logs what it is sent.
Standard library only. Prints "PORT <n>" once it listens (see peer_server.py).

  POST /_script     a JSON object {"METHOD /path": ANSWER, ...}, replacing the script; an ANSWER is
                    {"status": 200, "headers": [["Name", "value"], ...], "body": "text",
                     "gzip_of_zeros": N   (the body: N zero bytes, gzip-compressed, sent with
                                           Content-Encoding: gzip),
                     "trickle": S         (the body sent one byte every S seconds)}
  GET /_log         JSON: every other request, in order: method, path (with its query) and its raw
                    header lines as they arrived
  anything else     the scripted answer for "METHOD /path" (path without its query), else 404
"""
import argparse
import gzip
import json
import threading
import time
from http.server import BaseHTTPRequestHandler
from peer_server import read_body, serve

SCRIPT = {}
LOG = []
LOCK = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def send_all(self, status, headers, body):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self):
        body = read_body(self)
        path = self.path.split("?", 1)[0]
        if self.command == "POST" and path == "/_script":
            with LOCK:
                SCRIPT.clear()
                SCRIPT.update(json.loads(body))
            return self.send_all(200, [], b"{}")
        if path == "/_log":
            with LOCK:
                log = json.dumps(LOG).encode()
            return self.send_all(200, [("Content-Type", "application/json")], log)
        with LOCK:
            LOG.append({"method": self.command, "path": self.path, "headers": [line.rstrip("\r\n") for line in self.headers.as_string().splitlines()]})
            answer = SCRIPT.get("%s %s" % (self.command, path))
        if answer is None:
            return self.send_all(404, [("Content-Type", "application/json")], b'{"title":"Not Found"}')
        headers = [tuple(pair) for pair in answer.get("headers", [])]
        payload = answer.get("body", "").encode()
        if "gzip_of_zeros" in answer:
            payload = gzip.compress(bytes(answer["gzip_of_zeros"]), compresslevel=9)
            headers.append(("Content-Encoding", "gzip"))
        if "trickle" in answer:
            self.send_response(answer.get("status", 200))
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.flush()
            try:
                for byte in payload:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(answer["trickle"])
            except OSError:
                self.close_connection = True
            return
        self.send_all(answer.get("status", 200), headers, payload)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = handle_any


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--lifetime", type=float, default=300)
    args = parser.parse_args()
    serve(Handler, args.host, args.lifetime)


if __name__ == "__main__":
    main()
