#!/usr/bin/env python3
"""Two clients that stall: one connects and sends nothing, one sends half a request line. Writes
"connected" to LOG once both are connected, then "closed N" if the server closes connection N,
and waits until killed. Usage: api_stalled_clients.py PORT LOG."""
import select
import socket
import sys

port, log = int(sys.argv[1]), sys.argv[2]
silent = socket.create_connection(("127.0.0.1", port))
partial = socket.create_connection(("127.0.0.1", port))
partial.sendall(b"GET /v1/sta")
with open(log, "a") as f:
    f.write("connected\n")
open_socks = {silent: 0, partial: 1}
while open_socks:
    ready, _, _ = select.select(list(open_socks), [], [])
    for s in ready:
        if not s.recv(4096):
            with open(log, "a") as f:
                f.write(f"closed {open_socks.pop(s)}\n")
