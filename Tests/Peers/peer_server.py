"""What every test server here shares: listen on a free loopback port, say which, and stop by
itself when the tests' process goes away (stdin closes) or the lifetime ends."""
import os
import socket
import sys
import threading
import time
from http.server import ThreadingHTTPServer


class Server(ThreadingHTTPServer):
    daemon_threads = True


class Server6(Server):
    address_family = socket.AF_INET6


def serve(handler, host, lifetime, tls=None):
    """Serves `handler` on `host` at a free port, prints "PORT <n>", and never returns; with
    `tls` (a certificate file and its key file), over TLS."""
    server = (Server6 if ":" in host else Server)((host, 0), handler)
    if tls:
        import ssl
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(tls[0], tls[1])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print("PORT %d" % server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    def watch_stdin():
        sys.stdin.read()  # returns when the parent closes stdin or dies
        os._exit(0)

    threading.Thread(target=watch_stdin, daemon=True).start()
    time.sleep(lifetime)
    os._exit(0)


def read_body(handler):
    """The request body of a BaseHTTPRequestHandler: chunked or by Content-Length."""
    if "chunked" in (handler.headers.get("Transfer-Encoding") or "").lower():
        chunks = []
        while True:
            size = int(handler.rfile.readline().split(b";")[0].strip() or b"0", 16)
            if size == 0:
                while handler.rfile.readline() not in (b"\r\n", b"\n", b""):
                    pass
                return b"".join(chunks)
            chunks.append(handler.rfile.read(size))
            handler.rfile.readline()
    length = int(handler.headers.get("Content-Length") or 0)
    return handler.rfile.read(length) if length > 0 else b""


def split_list(value):
    """A comma-separated query value as its items (`a, b,,c` gives a, b, c)."""
    return [v.strip() for v in (value or "").split(",") if v.strip()]


def add_common_arguments(parser, consumer, token):
    """The arguments every fake server takes: where it listens, how long it lives, and the one
    consumer and access token it knows (`consumer` and `token` are (key, secret) defaults)."""
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--lifetime", type=float, default=300)
    parser.add_argument("--consumer-key", default=consumer[0])
    parser.add_argument("--consumer-secret", default=consumer[1])
    parser.add_argument("--access-token", default=token[0])
    parser.add_argument("--access-token-secret", default=token[1])
