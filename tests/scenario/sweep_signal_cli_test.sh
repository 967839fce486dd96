#!/usr/bin/env bash
# Ctrl-C during a sweep: the sweep stops launching, ends the running point (SIGTERM), keeps the
# finished one, writes sweep.csv for what finished and exits 130. A second run resumes the
# finished point and runs the other again.
# shellcheck source=cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
# Job control: a background job of a script would otherwise start with SIGINT ignored.
set -m

# Point 0: 16 hosts each sending 64 KiB, done in a fraction of a second. Point 1: each sending
# 2 GB at 100 Gb/s, 160 ms of simulated time and tens of millions of events, far longer than
# the sweep lives here. Point 2 comes after it, so --jobs 1 never starts it.
cat >"$work/s.textproto" <<'PB'
name: "s"
topology { fat_tree { k: 4 link_rate_gbps: 100 } }
traffic { permutation { message_bytes: 65536 } }
run { seed: 1 }
PB
sizes='traffic[0].permutation.message_bytes=65536,2000000000,131072'
out="$work/out"
p0="$out/point-000-message_bytes=65536"
p1="$out/point-001-message_bytes=2000000000"
p2="$out/point-002-message_bytes=131072"

"$bin" sweep "$work/s.textproto" --set "$sizes" --jobs 1 --out "$out" >"$work/stdout" \
  2>"$work/stderr" &
pid=$!
# Point 1's log is opened just before its process starts, after point 0 has finished: poll for
# it (ctest's timeout bounds the wait).
until [ -e "$p1/run.log" ]; do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
# As a terminal's Ctrl-C: to the sweep's whole process group (job control made it the leader).
kill -INT -- -"$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || fail "exit $rc, want 130: $(cat "$work/stderr")"
grep -q "sweep stopped by SIGINT: 1 of 3 points finished, 1 interrupted, 1 not run" \
  "$work/stderr" || fail "no line saying what stopped: $(cat "$work/stderr")"
[ -f "$p0/summary.json" ] && [ -f "$p0/sweep-point.done" ] || fail "point 0 was not kept"
[ ! -e "$p1/sweep-point.done" ] || fail "the interrupted point 1 counts as finished"
[ ! -e "$p2/run.log" ] || fail "point 2 was started after the stop"
python3 - "$out" <<'PY' || fail "sweep.csv does not hold what finished"
import csv, json, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(out + "/sweep.csv")))
assert [r["status"] for r in rows] == ["ok", "interrupted", "not run"], rows
s = json.load(open(out + "/" + rows[0]["dir"] + "/summary.json"))
assert float(rows[0]["fct_p99_ns"]) == s["fct_ns"]["p99"]
assert rows[1]["fct_p99_ns"] == "" and rows[2]["fct_p99_ns"] == ""
PY

# Resume with point 1 made short: point 0 is resumed, 1 (its scenario changed) and 2 run.
short='traffic[0].permutation.message_bytes=65536,4096,131072'
"$bin" sweep "$work/s.textproto" --set "$short" --jobs 1 --out "$out" >"$work/stdout" \
  2>"$work/stderr" || fail "resumed sweep failed: $(cat "$work/stderr")"
grep -q "sweep: 3 points: 2 run, 1 resumed, 0 failed" "$work/stdout" ||
  fail "resume: want 2 run and 1 resumed: $(cat "$work/stdout")"

cli_finish "sweep_signal_cli"
