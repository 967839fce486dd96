#!/usr/bin/env python3
"""Slow clients against the API's caps. Opens FLOOD connections from 127.0.0.1, each sending half
a request line and nothing more (more than the server's 64 connections in all and 16 per client
address), then asks GET /v1/status as a new client from another address (127.0.0.2) and from the
flooding one: both must be answered 200. Of the flood, exactly the per-client cap less the one the
second client took the place of stays open: the others were closed, oldest first, to make room.
Prints what failed and exits 1. Usage: api_flood_clients.py PORT FLOOD PER_CLIENT_CAP."""
import socket
import sys

port, flood, cap = (int(a) for a in sys.argv[1:4])
failed = []


def status_from(source):
    s = socket.socket()
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    s.sendall(b"GET /v1/status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    answer = b""
    try:
        while chunk := s.recv(65536):
            answer += chunk
    except ConnectionResetError:
        answer += b" (reset)"
    s.close()
    return answer.split(b"\r\n", 1)[0].decode(errors="replace")


stalled = []
for _ in range(flood):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET /v1/sta")
    stalled.append(s)

for source in ("127.0.0.2", "127.0.0.1"):
    line = status_from(source)
    if not line.startswith("HTTP/1.1 200"):
        failed.append(f"a new client from {source} after {flood} stalled ones got {line!r}, want 200")

still_open = 0
for s in stalled:
    s.setblocking(False)
    try:
        still_open += 1 if s.recv(1) else 0
    except BlockingIOError:
        still_open += 1
    except ConnectionResetError:
        pass
want = cap - 1
if still_open != want:
    failed.append(f"{still_open} of the {flood} stalled connections are open, want {want}")
for f in failed:
    print("FAIL:", f)
sys.exit(1 if failed else 0)
