"""A hostile "Redis" on 127.0.0.1 for the Redis client's limits. Standard library only.

Prints "PORT <n>" once it listens, serves until its lifetime ends or its stdin closes (the test
process is gone), then exits on its own. Whatever command arrives, it answers as --mode says:

  huge-array    SET (any command) answered with an array of 4 MB of bulk strings, sent at once
  slow-nested   arrays nested eight deep around 1,000 bulk strings, 8 bytes every 5 ms (15 s)
  silent        reads the command and never answers
"""
import argparse
import os
import socket
import sys
import threading
import time

parser = argparse.ArgumentParser()
parser.add_argument("--host", default="127.0.0.1")
parser.add_argument("--lifetime", type=int, default=300)
parser.add_argument("--mode", required=True, choices=["huge-array", "slow-nested", "silent"])
options = parser.parse_args()


def huge_array():
    item = b"$1024\r\n" + b"x" * 1024 + b"\r\n"
    count = 4 * 1024
    return b"*%d\r\n" % count + item * count


def slow_nested(connection):
    item = b"$16\r\n" + b"y" * 16 + b"\r\n"
    # Within the client's shape limits (depth 8, 1,024 elements, 64 KiB): only time stops it.
    payload = b"*2\r\n" * 7 + (b"*1000\r\n" + item * 1000)
    for start in range(0, len(payload), 8):
        connection.sendall(payload[start:start + 8])
        time.sleep(0.005)


def handle(connection):
    try:
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        while True:
            data = connection.recv(65536)
            if not data:
                return
            if options.mode == "huge-array":
                connection.sendall(huge_array())
            elif options.mode == "slow-nested":
                slow_nested(connection)
            # silent: read on, answer nothing
    except OSError:
        pass
    finally:
        connection.close()


listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind((options.host, 0))
listener.listen(64)
print("PORT %d" % listener.getsockname()[1], flush=True)


def watch_stdin():
    sys.stdin.read()
    listener.close()
    os._exit(0)


threading.Thread(target=watch_stdin, daemon=True).start()
deadline = time.time() + options.lifetime
listener.settimeout(1)
while time.time() < deadline:
    try:
        connection, _ = listener.accept()
    except socket.timeout:
        continue
    except OSError:
        break
    threading.Thread(target=handle, args=(connection,), daemon=True).start()
