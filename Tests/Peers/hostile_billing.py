"""A hostile X for the budget's tests (issue #43): it answers whatever it is asked with posts,
counts and dates that a budget must not believe. Standard library only; no signature is checked.

Prints "PORT <n>" once it listens, serves until its lifetime ends or its stdin closes.

  GET /2/tweets/search/recent, /2/tweets/search/all
      --posts N posts a page (default: the request's max_results, else 10), new ids on every
      page, and a next_token on every page (an endless result)
  GET /2/tweets?ids=...   the ids asked for, as posts
  GET /2/tweets/counts/recent, /2/tweets/counts/all
      two buckets of --count each (default 2**63 - 1), no total: their sum overflows an Int
  GET /2/users/me         a user
  POST /2/compliance/jobs, PUT .../upload, GET .../{id}, GET .../download
      a batch compliance job, complete at once, whose results name every uploaded id as
      deleted, and --extra-results ids that were never uploaded
  anything else           404

  --date TEXT   the Date header of every answer ("now" by default; "none" for none)
  --log FILE    appends one line per request: method and target
"""
import argparse
import json
import time
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qsl, urlsplit
from peer_server import read_body, serve, split_list

parser = argparse.ArgumentParser()
parser.add_argument("--host", default="127.0.0.1")
parser.add_argument("--lifetime", type=float, default=300)
parser.add_argument("--posts", type=int, default=None)
parser.add_argument("--count", type=int, default=2**63 - 1)
parser.add_argument("--date", default="now")
parser.add_argument("--log", default=None)
parser.add_argument("--extra-results", default="")
args = parser.parse_args()

pages = [0]
uploaded = []


def post(id):
    return {"id": str(id), "text": "post %d" % id, "edit_history_tweet_ids": [str(id)]}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def date_header(self):
        # BaseHTTPRequestHandler.send_response adds its own Date: send_response_only does not.
        if args.date == "none":
            return
        self.send_header("Date", formatdate(time.time(), usegmt=True) if args.date == "now" else args.date)

    def answer(self, status, payload):
        body = json.dumps(payload).encode()
        self.send_response_only(status)
        self.send_header("Server", "hostile")
        self.date_header()
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def job(self):
        origin = "http://%s:%d" % self.server.server_address[:2]
        return {
            "id": "7", "type": "tweets", "status": "complete", "resumable": False,
            "created_at": "2026-11-28T00:00:00.000Z", "upload_expires_at": "2099-01-01T00:00:00.000Z",
            "download_expires_at": "2099-01-01T00:00:00.000Z",
            "upload_url": origin + "/storage/upload", "download_url": origin + "/storage/download",
        }

    def do_POST(self):
        read_body(self)
        if self.path.endswith("/2/compliance/jobs"):
            self.answer(200, {"data": self.job()})
        else:
            self.answer(404, {"title": "Not Found Error", "detail": "no such thing", "type": "about:blank"})

    def do_PUT(self):
        body = read_body(self)
        uploaded.extend(line.strip() for line in body.decode().splitlines() if line.strip())
        self.answer(200, {})

    def do_GET(self):
        read_body(self)
        url = urlsplit(self.path)
        query = dict(parse_qsl(url.query, keep_blank_values=True))
        if args.log:
            with open(args.log, "a") as log:
                log.write("GET %s\n" % self.path)
        path = url.path
        if path.endswith("/2/tweets/search/recent") or path.endswith("/2/tweets/search/all"):
            size = args.posts if args.posts is not None else int(query.get("max_results") or 10)
            pages[0] += 1
            first = 1_000_000 * pages[0]
            data = [post(first + i) for i in range(size)]
            meta = {"result_count": size, "newest_id": str(first), "oldest_id": str(first + size - 1), "next_token": "page%d" % (pages[0] + 1)}
            self.answer(200, {"data": data, "meta": meta})
        elif path.endswith("/2/tweets/counts/recent") or path.endswith("/2/tweets/counts/all"):
            buckets = [
                {"start": "2026-11-20T00:00:00.000Z", "end": "2026-11-21T00:00:00.000Z", "tweet_count": args.count},
                {"start": "2026-11-21T00:00:00.000Z", "end": "2026-11-22T00:00:00.000Z", "tweet_count": args.count},
            ]
            self.answer(200, {"data": buckets})
        elif path.endswith("/2/tweets") and "ids" in query:
            self.answer(200, {"data": [post(int(i)) for i in split_list(query["ids"])]})
        elif path.startswith("/2/compliance/jobs/"):
            self.answer(200, {"data": self.job()})
        elif path == "/storage/download":
            lines = [
                json.dumps({"id": i, "action": "delete", "reason": "deleted", "created_at": "2026-11-01T00:00:00.000Z",
                            "redacted_at": "2026-11-27T00:00:00.000Z", "deleted_at": "2026-11-27T00:00:00.000Z"})
                for i in uploaded + split_list(args.extra_results)
            ]
            body = ("\n".join(lines) + "\n").encode()
            self.send_response_only(200)
            self.date_header()
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif path.endswith("/2/users/me"):
            self.answer(200, {"data": {"id": "42", "name": "Hostile", "username": "hostile"}})
        else:
            self.answer(404, {"title": "Not Found Error", "detail": "no such thing", "type": "about:blank"})


serve(Handler, args.host, args.lifetime)
