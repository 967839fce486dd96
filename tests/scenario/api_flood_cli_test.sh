#!/usr/bin/env bash
# The API under a flood of stalled connections (each sends half a request line, then nothing):
# a new client is still answered at once, from another address or from the flooding one, and
# the flooder keeps at most its per-client cap of connections.
# shellcheck source=cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
here=$(dirname "${BASH_SOURCE[0]}")

# At the slowest pace the run outlasts the test; SIGTERM ends it (timeout bounds a hang).
timeout -s KILL 120 "$bin" run "$root/scenarios/default.textproto" --out "$work/out" \
  --api 127.0.0.1:0 --pace 1e-9 --quiet >/dev/null 2>"$work/stderr" &
pid=$!
until grep -q "api: listening on" "$work/stderr" 2>/dev/null; do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
port=$(grep -o 'listening on http://127.0.0.1:[0-9]*' "$work/stderr" | sed 's/.*://')
[ -n "$port" ] || fail "the run did not listen: $(cat "$work/stderr")"
# 64 connections in all and 16 per address are the server's caps (control/api/http_server.h).
[ -z "$port" ] || python3 "$here/api_flood_clients.py" "$port" 64 16 || fail "flooded API"
kill -s TERM "$(pgrep -P "$pid" -x fabric-emu || echo "$pid")"
wait "$pid"
rc=$?
[ "$rc" -eq 143 ] || fail "exit $rc after SIGTERM, want 143: $(cat "$work/stderr")"

cli_finish "api_flood_cli"
