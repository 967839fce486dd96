#!/usr/bin/env bash
# The HTTP API as a client meets it, with curl: every endpoint and error (401, 400 with the
# reason, 413, 404, 405 with Allow), loopback only unless told, a token file only its owner
# reads, a WRED change through the API that stops the queue's marks from its time on, a change
# sent ahead that equals the schedule entry, a read-only unpaced run, clients that stall without holding up the
# run (closed at their header deadline), /metrics accepted by promtool during a run and equal to summary.json at its end, in
# software and real-time mode. Waits are polls for a condition (ctest's timeout bounds them).
# shellcheck source=cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
here=$(dirname "${BASH_SOURCE[0]}")
command -v promtool >/dev/null || { echo "promtool missing (scripts/install-deps.sh)"; exit 1; }

# 8 senders x 1 MiB into host 0: 696 us of simulated time, marked by WRED at the receiver's edge.
cat >"$work/incast.textproto" <<'PB'
name: "incast"
topology { fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 } }
traffic { incast { senders: 8 message_bytes: 1048576 } }
run { seed: 1 }
PB
# 16 hosts x 2 GB: 160 ms of simulated time, many seconds of wall time unpaced.
cat >"$work/long.textproto" <<'PB'
name: "long"
topology { fat_tree { k: 4 } }
traffic { permutation { message_bytes: 2000000000 } }
run { seed: 1 }
PB
# Real-time mode with a null device as the real host (no root needed), 1 s.
cat >"$work/rt.textproto" <<'PB'
name: "rt"
topology { fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 } }
traffic { permutation { message_bytes: 1048576 } }
realtime { port { device_args: "net_null0" host: 0 } }
run { seed: 1 }
PB

# listening STDERR PID: polls until the API says where it listens; prints the port.
listening() {
  until grep -q "api: listening on" "$1" 2>/dev/null; do
    kill -0 "$2" 2>/dev/null || { fail "the run ended before listening: $(cat "$1")"; return 1; }
    sleep 0.05
  done
  grep -o 'listening on http://127.0.0.1:[0-9]*' "$1" | sed 's/.*://'
}
# code ARGS...: curl's status code, the body in $work/body, the headers in $work/headers.
code() { curl -s -o "$work/body" -D "$work/headers" -w '%{http_code}' "$@"; }
# expect WANT_CODE WANT_IN_BODY ARGS...
expect() {
  local want=$1 text=$2
  shift 2
  local got
  got=$(code "$@")
  [ "$got" = "$want" ] || fail "$*: HTTP $got, want $want: $(cat "$work/body")"
  grep -qF -- "$text" "$work/body" || fail "$*: body lacks '$text': $(cat "$work/body")"
}
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))$2)" "$1"; }
# wait_state URL STATE: polls /v1/status until its state is STATE.
wait_state() {
  until [ "$(curl -s "$1/v1/status" | python3 -c 'import json,sys; print(json.load(sys.stdin)["state"])' 2>/dev/null)" = "$2" ]; do
    sleep 0.05
  done
}
# ecn_marks URL PRIORITY: the sum of the priority's ECN mark counters now.
ecn_marks() {
  curl -s "$1/metrics" | awk -v p="priority=\"$2\"" '/^fabric_emu_queue_ecn_marks_total/ && index($0, p) { n += $2 } END { print n + 0 }'
}

# --- Refused before anything runs (exit 2), with the reason.
"$bin" run "$work/incast.textproto" --out "$work/refused" --api 0.0.0.0:0 2>"$work/err"
[ $? -eq 2 ] && grep -q -- "--api-allow-remote" "$work/err" || fail "0.0.0.0 not refused: $(cat "$work/err")"
echo secret >"$work/shared-token"
chmod 644 "$work/shared-token"
"$bin" run "$work/incast.textproto" --out "$work/refused" --api 127.0.0.1:0 \
  --api-token-file "$work/shared-token" 2>"$work/err"
[ $? -eq 2 ] && grep -q "chmod 600" "$work/err" || fail "a shared token file was taken: $(cat "$work/err")"

# --- A paced run (at most 0.00005 x real time: 14 s of wall time) held open after its end.
# Marking lasts its first 130 us or so (2.6 s of wall time): the WRED change comes first.
pace=0.00005
out="$work/paced"
"$bin" run "$work/incast.textproto" --out "$out" --api 127.0.0.1:0 --pace $pace --api-hold \
  --quiet >"$work/paced.stdout" 2>"$work/paced.stderr" &
pid=$!
port=$(listening "$work/paced.stderr" $pid) || exit 1
url="http://127.0.0.1:$port"
token=$(cat "$out/api-token")
auth="Authorization: Bearer $token"
[ "$(stat -c %a "$out/api-token")" = 600 ] || fail "api-token mode $(stat -c %a "$out/api-token")"
grep -qF "$token" "$work/paced.stderr" || fail "the token was not printed"
# Bound to the loopback address alone, not to every interface.
bound=$(ss -Hltn "sport = :$port" | awk '{ print $4 }')
[ "$bound" = "127.0.0.1:$port" ] || fail "listens on '$bound', want 127.0.0.1:$port"

python3 "$here/api_stalled_clients.py" "$port" "$work/stall.log" &
stall_pid=$!
until grep -q connected "$work/stall.log" 2>/dev/null; do sleep 0.05; done

# WRED off for the priority the incast is marked at, once marks have begun: from the command's
# time on, no queue of that priority marks again.
prio=
until [ -n "$prio" ]; do
  prio=$(curl -s "$url/metrics" | awk '/^fabric_emu_queue_ecn_marks_total/ && $2 > 0' |
    grep -o 'priority="[0-9]"' | head -1 | tr -dc 0-9)
  sleep 0.02
done
cmd="{\"set_ecn\": {\"priority\": $prio, \"wred\": {\"enabled\": false}}}"
expect 202 '"at_ns"' -X POST -H "$auth" "$url/v1/commands" -d "$cmd"
at_ns=$(field "$work/body" '["at_ns"]')
marks_at=$(ecn_marks "$url" "$prio")
[ "$(curl -s "$url/v1/status" | grep -c '"running"')" = 1 ] || fail "the command came after the run"
# Sent ahead of its time, as a schedule entry: refused for a time the run has passed, else run
# then (the same change again, so the run's figures stay as the first command made them).
ahead="\"set_ecn\": {\"priority\": $prio, \"wred\": {\"enabled\": false}}"
expect 400 "is past" -X POST -H "$auth" "$url/v1/commands" -d "{\"at_ns\": 1, $ahead}"
# Out of a schedule entry's range: the validator's own message, as for the file.
expect 400 "at_ns: must be in [0, 1e+15]" -X POST -H "$auth" "$url/v1/commands" \
  -d "{\"at_ns\": 1e16, $ahead}"
expect 400 "at_ns: must be in" -X POST -H "$auth" "$url/v1/commands" -d "{\"at_ns\": -5, $ahead}"
expect 202 '"at_ns": 650000.0' -X POST -H "$auth" "$url/v1/commands" -d "{\"at_ns\": 650000, $ahead}"

expect 200 '"state": "running"' "$url/v1/status"
curl -s "$url/metrics" >"$work/during.txt"
grep -q '^fabric_emu_run_finished 0$' "$work/during.txt" || fail "metrics scraped after the run"
promtool check metrics <"$work/during.txt" || fail "promtool refused /metrics during the run"
expect 200 '"flows"' "$url/v1/flows?state=active"
expect 200 '"count"' "$url/v1/flows?state=all"
expect 200 '"count"' "$url/v1/flows?state=completed"
expect 400 "not one of active" "$url/v1/flows?state=bogus"
expect 404 "no endpoint" "$url/v1/nothing"
expect 405 "takes GET, HEAD only" -X POST "$url/v1/status"
grep -qi '^Allow: GET' "$work/headers" || fail "405 without Allow: $(cat "$work/headers")"
expect 405 "takes POST only" "$url/v1/commands"
# HEAD: the GET's status and Content-Length, no body.
[ "$(curl -s -I -o "$work/head" -w '%{http_code} %{size_download}' "$url/v1/status")" = "200 0" ] ||
  fail "HEAD /v1/status: $(cat "$work/head")"
grep -qi '^Content-Length: [1-9]' "$work/head" || fail "HEAD without the GET's length: $(cat "$work/head")"
cmd='{"set_ecn": {"priority": 3, "wred": {"enabled": false}}}'
expect 401 "Authorization: Bearer" -X POST "$url/v1/commands" -d "$cmd"
grep -qi '^WWW-Authenticate: Bearer' "$work/headers" || fail "401 without WWW-Authenticate"
expect 401 "wrong bearer token" -X POST -H "Authorization: Bearer x$token" "$url/v1/commands" -d "$cmd"
expect 400 "malformed JSON" -X POST -H "$auth" "$url/v1/commands" -d '{"set_ecn": '
expect 400 "Cannot find field" -X POST -H "$auth" "$url/v1/commands" -d '{"set_ecn": {"prio": 3}}'
expect 400 "set_ecn.priority: must be in [0, 7]" -X POST -H "$auth" "$url/v1/commands" \
  -d '{"set_ecn": {"priority": 9, "wred": {}}}'
head -c 70000 /dev/zero | tr '\0' ' ' >"$work/big.json"
expect 413 "over the limit" -X POST -H "$auth" "$url/v1/commands" --data-binary @"$work/big.json"

wait_state "$url" finished
curl -s "$url/metrics" >"$work/final.txt"
promtool check metrics <"$work/final.txt" || fail "promtool refused /metrics at the end"
python3 "$here/api_metrics_check.py" "$work/final.txt" "$out/summary.json" software ||
  fail "final /metrics differ from summary.json"
marks_end=$(ecn_marks "$url" "$prio")
[ "$marks_at" -gt 0 ] && [ "$marks_end" = "$marks_at" ] ||
  fail "ECN marks of priority $prio: $marks_at at ${at_ns} ns, $marks_end at the end"
expect 409 "the run has finished" -X POST -H "$auth" "$url/v1/commands" -d "$cmd"
# The stalled clients held nothing up; the server closes each at its header deadline (10 s).
until [ "$(grep -c closed "$work/stall.log")" -eq 2 ]; do sleep 0.1; done
expect 200 "the API stops now" -X POST -H "$auth" "$url/v1/shutdown"
wait $pid || fail "paced run: exit $?"

# A replay of the paced run's events.csv gives its flows to the byte: a command taken between
# slices lands between two windows, where a schedule entry at its time runs too.
"$bin" run "$work/incast.textproto" --out "$work/replayed" --events "$out/events.csv" --quiet \
  >/dev/null || fail "the replay of events.csv failed"
cmp -s "$out/flows.csv" "$work/replayed/flows.csv" ||
  fail "flows.csv: the replay of events.csv differs from the run steered through the API"
kill $stall_pid 2>/dev/null
# Paced: never faster than pace x real time, less the last slice, which is not waited for: a step
# of 10 ms of wall time, and the window it ends in, which runs whole (up to the lookahead, the
# 1 us link delay, of simulated time).
python3 - "$out/summary.json" $pace <<'PY' || fail "the paced run ran ahead of its pace"
import json, sys
s, pace = json.load(open(sys.argv[1])), float(sys.argv[2])
floor = s["simulated_time_ns"] * 1e-9 / pace - 0.010 - 1e-6 / pace
assert s["wall_time_s"] >= floor, (s["wall_time_s"], floor)
PY
# events.csv writes times with 3 decimals (whole picoseconds); the answer as JSON numbers do.
grep -q "^$(printf '%.3f' "$at_ns"),api,\"{\"\"set_ecn\"\"" "$out/events.csv" ||
  fail "events.csv lacks the API's command at $at_ns: $(cat "$out/events.csv")"
grep -q "^650000.000,api," "$out/events.csv" ||
  fail "events.csv lacks the command sent ahead to 650000 ns: $(cat "$out/events.csv")"
# Without the command, more marks: the API's change is what stopped them.
"$bin" run "$work/incast.textproto" --out "$work/base" --quiet >/dev/null || fail "baseline failed"
python3 - "$work/base/summary.json" "$out/summary.json" "$marks_end" <<'PY' ||
import json, sys
base, steered = (json.load(open(p)) for p in sys.argv[1:3])
marks = lambda s: sum(q["ecn_marks"] for q in s["switch_queues"])
assert marks(steered) == int(sys.argv[3]), (marks(steered), sys.argv[3])
assert marks(base) > marks(steered), (marks(base), marks(steered))
PY
  fail "marks: summary.json differs from /metrics, or the baseline does not mark more"
echo "ECN marks of priority $prio: $marks_at at the command ($at_ns ns) and at the end;" \
  "$(python3 -c 'import json,sys; print(sum(q["ecn_marks"] for q in json.load(open(sys.argv[1]))["switch_queues"]))' "$work/base/summary.json") without it"

# --- A change sent through the API ahead of its time is the schedule entry's: same flows.csv,
# same events.csv but for the source.
change='set_ecn { priority: 3 wred { kmin_bytes: 20000 kmax_bytes: 100000 pmax: 0.2 } }'
{ cat "$work/incast.textproto"; echo "schedule { at_ns: 300000 $change }"; } >"$work/scheduled.textproto"
"$bin" run "$work/scheduled.textproto" --out "$work/scheduled" --quiet >/dev/null ||
  fail "the scheduled run failed"
"$bin" run "$work/incast.textproto" --out "$work/sent" --api 127.0.0.1:0 --pace 0.0002 \
  --api-hold --quiet >/dev/null 2>"$work/sent.stderr" &
pid=$!
port=$(listening "$work/sent.stderr" $pid) || exit 1
url="http://127.0.0.1:$port"
auth="Authorization: Bearer $(cat "$work/sent/api-token")"
expect 202 '"at_ns": 300000.0' -X POST -H "$auth" "$url/v1/commands" -d \
  '{"at_ns": 300000, "set_ecn": {"priority": 3, "wred": {"kmin_bytes": 20000, "kmax_bytes": 100000, "pmax": 0.2}}}'
wait_state "$url" finished
expect 200 "the API stops now" -X POST -H "$auth" "$url/v1/shutdown"
wait $pid || fail "the run steered by the API: exit $?"
cmp -s "$work/scheduled/flows.csv" "$work/sent/flows.csv" ||
  fail "flows.csv: the API's change differs from the schedule's"
grep -q '^300000.000,api,' "$work/sent/events.csv" || fail "events.csv lacks the API's change"
[ "$(sed 's/,api,/,schedule,/' "$work/sent/events.csv")" = "$(cat "$work/scheduled/events.csv")" ] ||
  fail "events.csv: $(cat "$work/sent/events.csv") vs $(cat "$work/scheduled/events.csv")"

# --- Unpaced: read-only while it runs; POST /v1/shutdown stops it at its next slice.
"$bin" run "$work/long.textproto" --out "$work/unpaced" --api 127.0.0.1:0 --quiet \
  >/dev/null 2>"$work/unpaced.stderr" &
pid=$!
port=$(listening "$work/unpaced.stderr" $pid) || exit 1
url="http://127.0.0.1:$port"
auth="Authorization: Bearer $(cat "$work/unpaced/api-token")"
expect 409 "read-only" -X POST -H "$auth" "$url/v1/commands" -d "$cmd"
expect 202 "next slice" -X POST -H "$auth" "$url/v1/shutdown"
wait $pid || fail "unpaced run stopped by the API: exit $?"
[ "$(field "$work/unpaced/summary.json" '["stop_reason"]')" = "api shutdown" ] ||
  fail "stop_reason: $(field "$work/unpaced/summary.json" '["stop_reason"]')"

# --- Real-time mode: the same views, and a lateness histogram that holds every event.
"$bin" serve "$work/rt.textproto" --out "$work/rt" --duration-s 1 --api 127.0.0.1:0 --api-hold \
  --quiet >/dev/null 2>"$work/rt.stderr" &
pid=$!
port=$(listening "$work/rt.stderr" $pid) || exit 1
url="http://127.0.0.1:$port"
expect 200 '"mode": "realtime"' "$url/v1/status"
wait_state "$url" finished
curl -s "$url/metrics" >"$work/rt.txt"
promtool check metrics <"$work/rt.txt" || fail "promtool refused serve's /metrics"
python3 "$here/api_metrics_check.py" "$work/rt.txt" "$work/rt/summary.json" realtime ||
  fail "serve's final /metrics differ from summary.json"
expect 200 "the API stops now" -X POST -H "Authorization: Bearer $(cat "$work/rt/api-token")" \
  "$url/v1/shutdown"
wait $pid || fail "serve: exit $?"

cli_finish "api_cli"
