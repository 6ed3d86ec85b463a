"""A hostile HTTP server on 127.0.0.1 for the CLI's tests: it answers each path (without its
query) with what a JSON file of answers says, whatever the request, and logs every request.
Standard library only.

Prints "PORT <n>" once it listens, serves until its lifetime ends or its stdin closes (the
test process is gone), then exits on its own.

  --answers FILE   {"/2/path": ANSWER, ...}; an ANSWER is an object with "status" (200 by
                   default), "headers" ({name: value}), and one body: "json" (any JSON value,
                   sent as JSON), "text" (sent as UTF-8), "zeros" (that many zero bytes) or
                   "gzip_zeros" (that many zero bytes gzip-compressed, sent with
                   Content-Encoding: gzip whatever the request's Accept-Encoding); and
                   "trickle": S to send the body one byte every S seconds.
                   A path with no answer gets 404.
  --log FILE       appends one JSON line per request: method, path, query, headers.
"""
import argparse
import gzip
import json
import time
from http.server import BaseHTTPRequestHandler
from peer_server import read_body, serve
from urllib.parse import urlsplit

ANSWERS = {}
BODIES = {}
LOG = None


def body_of(path, answer):
    if path in BODIES:
        return BODIES[path]
    if "json" in answer:
        body = json.dumps(answer["json"]).encode()
    elif "text" in answer:
        body = answer["text"].encode()
    elif "zeros" in answer:
        body = bytes(answer["zeros"])
    elif "gzip_zeros" in answer:
        body = gzip.compress(bytes(answer["gzip_zeros"]), compresslevel=9)
    else:
        body = b""
    BODIES[path] = body
    return body


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def handle_any(self):
        url = urlsplit(self.path)
        read_body(self)
        if LOG:
            with open(LOG, "a") as log:
                log.write(json.dumps({"method": self.command, "path": url.path, "query": url.query,
                                      "headers": [[k, v] for k, v in self.headers.items()]}) + "\n")
        answer = ANSWERS.get(url.path)
        if answer is None:
            body = json.dumps({"errors": [{"message": "no canned answer for " + url.path}]}).encode()
            status, headers = 404, {"Content-Type": "application/json"}
        else:
            body = body_of(url.path, answer)
            status = answer.get("status", 200)
            headers = dict(answer.get("headers", {}))
            if "json" in answer:
                headers.setdefault("Content-Type", "application/json")
            if "gzip_zeros" in answer:
                headers["Content-Encoding"] = "gzip"
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command == "HEAD":
            return
        if answer is not None and "trickle" in answer:
            self.wfile.flush()
            try:
                for byte in body:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(answer["trickle"])
            except OSError:
                self.close_connection = True
            return
        self.wfile.write(body)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = handle_any


def main():
    global ANSWERS, LOG
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--lifetime", type=float, default=120)
    parser.add_argument("--answers", required=True)
    parser.add_argument("--log")
    args = parser.parse_args()
    with open(args.answers) as f:
        ANSWERS = json.load(f)
    LOG = args.log
    serve(Handler, args.host, args.lifetime)


if __name__ == "__main__":
    main()
