"""A reverse proxy on 127.0.0.1, configured the way nginx is in front of an application that
ends TLS for it: it forwards every request to --backend, connecting from --source (another
loopback address, 127.0.0.2, so that the backend can tell the proxy from a client), and SETS
the forwarding headers the application is told to trust, overwriting whatever the client sent:

  --headers x-forwarded   X-Forwarded-Proto: <--public-scheme>, X-Forwarded-Host: <--public-host>,
                          X-Forwarded-Port: <--public-port>  (nginx: proxy_set_header ...)
  --headers forwarded     Forwarded: proto=<scheme>;host="<host:port>"  (RFC 7239)

Standard library only. Prints "PORT <n>"; exits when stdin closes or --lifetime ends."""
import argparse
import http.client
from http.server import BaseHTTPRequestHandler
from urllib.parse import urlsplit

from peer_server import read_body, serve

HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade"}
FORWARDING = {"forwarded", "x-forwarded-proto", "x-forwarded-host", "x-forwarded-port", "x-forwarded-for"}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def forward(self):
        body = read_body(self)
        headers = {name: value for name, value in self.headers.items()
                   if name.lower() not in HOP_BY_HOP and name.lower() not in FORWARDING}
        public_authority = ARGS.public_host + ("" if ARGS.public_port in ("", "443") else ":" + ARGS.public_port)
        if ARGS.headers == "x-forwarded":
            headers["X-Forwarded-Proto"] = ARGS.public_scheme
            headers["X-Forwarded-Host"] = ARGS.public_host
            headers["X-Forwarded-Port"] = ARGS.public_port or "443"
        else:
            headers["Forwarded"] = 'for=%s;proto=%s;host="%s"' % (self.client_address[0], ARGS.public_scheme, public_authority)
        backend = urlsplit(ARGS.backend)
        try:
            # A loaded test machine may be slow to answer: wait long, and say so if it never does.
            connection = http.client.HTTPConnection(backend.hostname, backend.port, timeout=120,
                                                    source_address=(ARGS.source, 0))
            connection.request(self.command, self.path, body=body, headers=headers)
            answer = connection.getresponse()
            data = answer.read()
        except OSError as error:
            message = ("forwarding_proxy: the backend failed: %r" % error).encode()
            self.send_response(502)
            self.send_header("Content-Length", str(len(message)))
            self.end_headers()
            self.wfile.write(message)
            return
        self.send_response(answer.status)
        for name, value in answer.getheaders():
            if name.lower() not in HOP_BY_HOP and name.lower() != "content-length":
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_DELETE = forward


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--lifetime", type=float, default=300)
    parser.add_argument("--backend", required=True)
    parser.add_argument("--source", default="127.0.0.2")
    parser.add_argument("--public-scheme", default="https")
    parser.add_argument("--public-host", required=True)
    parser.add_argument("--public-port", default="")
    parser.add_argument("--headers", choices=["x-forwarded", "forwarded"], default="x-forwarded")
    ARGS = parser.parse_args()
    serve(Handler, ARGS.host, ARGS.lifetime)


ARGS = None
if __name__ == "__main__":
    main()
