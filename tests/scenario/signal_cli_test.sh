#!/usr/bin/env bash
# `fabric-emu run` stopped by SIGINT, SIGTERM or SIGHUP, as a user's Ctrl-C, a job scheduler or
# a dropped SSH session stops it: the run ends at its next slice boundary, writes summary.json
# (stopped_early, stop_reason), flows.csv with every flow so far and the samplers' files, says
# so, and exits 128 + the signal (130, 143, 129). SIGPIPE is ignored.
# shellcheck source=cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
# Job control: a background job of a script would otherwise start with SIGINT ignored.
set -m

# 16 hosts each sending 2 GB at 100 Gb/s: 160 ms of simulated time and tens of millions of
# events, far longer than the second it takes for the first progress line.
cat >"$work/long.textproto" <<'PB'
name: "long"
topology { fat_tree { k: 4 } }
traffic { permutation { message_bytes: 2000000000 } }
run { seed: 1 progress: true queue_sample_interval_ns: 100000 }
PB

# stop SIGNAL WANT_RC: runs the scenario in the background, sends SIGNAL once its first progress
# line is out, and checks what the stopped run left.
stop() {
  # Files of its own: the shell truncates a redirect only once the job has started, so a file
  # shared with the run before could still show that run's progress line.
  local sig=$1 want=$2 out="$work/out_$1" err="$work/stderr_$1"
  "$bin" run "$work/long.textproto" --out "$out" >"$work/stdout_$1" 2>"$err" &
  local pid=$!
  # The progress line says the run is under way; poll for it (ctest's timeout bounds the wait).
  until grep -qs '^progress:' "$err"; do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  kill -s "$sig" "$pid"
  wait "$pid"
  local rc=$?
  [ "$rc" -eq "$want" ] || fail "$sig: exit $rc, want $want: $(cat "$err")"
  grep -q "stopped by SIG$sig at simulated" "$err" ||
    fail "$sig: no line saying so: $(cat "$err")"
  python3 - "$out" "$sig" <<'PY' || fail "$sig: outputs do not hold the run so far"
import csv, json, sys
out, sig = sys.argv[1], sys.argv[2]
s = json.load(open(out + "/summary.json"))
assert s["stopped_early"] is True, s["stopped_early"]
assert s["stop_reason"] == "signal SIG" + sig, s["stop_reason"]
rows = list(csv.DictReader(open(out + "/flows.csv")))
# One row per flow, all started (a permutation starts every flow at 0), none finished: 2 GB
# take 160 ms at 100 Gb/s and the run stopped within its first seconds of wall time.
assert len(rows) == s["flows_total"] == 16, (len(rows), s["flows_total"])
assert all(r["started_ns"] != "" for r in rows)
done = [r for r in rows if r["finish_ns"] != ""]
assert len(done) == s["flows_completed"], (len(done), s["flows_completed"])
assert s["simulated_time_ns"] < 160e6, s["simulated_time_ns"]
# Queue samples up to the stop: the last one no later than where the run stopped.
queues = list(csv.DictReader(open(out + "/queues.csv")))
assert queues, "no queue samples"
assert max(float(q["time_ns"]) for q in queues) <= s["simulated_time_ns"]
PY
}

stop INT 130
stop TERM 143
stop HUP 129

# SIGPIPE (a reader of the run's output went away) does not end the run: it goes on, and a
# SIGINT after it stops it as above.
"$bin" run "$work/long.textproto" --out "$work/out_pipe" >/dev/null 2>"$work/stderr_pipe" &
pid=$!
until grep -qs '^progress:' "$work/stderr_pipe"; do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
kill -s PIPE "$pid"
kill -0 "$pid" 2>/dev/null || fail "SIGPIPE ended the run: $(cat "$work/stderr_pipe")"
kill -s INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || fail "SIGINT after SIGPIPE: exit $rc, want 130: $(cat "$work/stderr_pipe")"
grep -q '"stop_reason": "signal SIGINT"' "$work/out_pipe/summary.json" ||
  fail "SIGINT after SIGPIPE: summary.json does not say it was stopped"

# At the slowest pace (a simulated nanosecond per wall second) the first window alone is due in
# minutes of wall time: the wait for it still ends at the signal. `timeout` bounds the test: a
# wait that did not would be killed after 60 s and fail it.
# stop_paced NAME [ARGS...]: a paced run with the API (and ARGS) stopped by SIGTERM.
stop_paced() {
  local name=$1 out="$work/out_$1" err="$work/stderr_$1"
  shift
  timeout -s KILL 60 "$bin" run "$root/scenarios/default.textproto" --out "$out" \
    --api 127.0.0.1:0 --pace 1e-9 --quiet "$@" >/dev/null 2>"$err" &
  local pid=$!
  until [ -s "$out/api-token" ]; do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  kill -s TERM "$(pgrep -P "$pid" -x fabric-emu || echo "$pid")"
  wait "$pid"
  local rc=$?
  [ "$rc" -eq 143 ] || fail "$name run: exit $rc, want 143: $(cat "$err")"
  grep -q '"stop_reason": "signal SIGTERM"' "$out/summary.json" ||
    fail "$name run: summary.json does not say it was stopped"
}
stop_paced paced
# With --api-hold the same: the signal asked the process to end, so it writes its outputs and
# exits rather than holding the API open (which would wait for a second signal for ever; the
# `timeout` would then kill it, exit 137).
stop_paced held --api-hold

cli_finish "signal_cli"
