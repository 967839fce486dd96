#!/usr/bin/env bash
# Trace replay and `fabric-emu export` as a user meets them. Each shipped trace scenario, and one
# of random patterns, runs; its export, replayed in place of its traffic, writes a byte-identical
# flows.csv for the same seed, and exports to the same file again; a second run repeats the
# first to the byte; no message starts before the messages it waits for are delivered, plus its
# delay; refusals exit 2 with file:line and reason, an unwritable output exits 1.
# shellcheck source=cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
seed=3

# Writes $3: the scenario $1 with its traffic sections replaced by one replaying the trace $2.
replay_scenario() {
  python3 - "$1" "$2" "$3" <<'PY'
import sys
src, trace, out = sys.argv[1:]
text = "".join(line.split("#", 1)[0] + "\n" for line in open(src))
kept, i, depth = [], 0, 0
while i < len(text):
    if depth == 0 and text.startswith("traffic", i) and text[i + 7:].lstrip().startswith("{"):
        i = text.index("{", i) + 1
        level = 1
        while level:
            level += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        continue
    depth += {"{": 1, "}": -1}.get(text[i], 0)
    kept.append(text[i])
    i += 1
open(out, "w").write("".join(kept) + 'traffic { trace { file: "%s" } }\n' % trace)
PY
}

# Every message starts (flows.csv started_ns) at or after the delivery (finish_ns) of each message
# it waits for plus its delay; flows.csv's `after` is the export's. Times are exact: both files
# print picoseconds as ns with 3 decimals. Prints how many messages wait.
check_dependencies() {
  python3 - "$1" "$2" <<'PY'
import csv, sys
from decimal import Decimal
flows = {int(r["id"]): r for r in csv.DictReader(open(sys.argv[1]))}
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == len(flows), (len(rows), len(flows))
waiting = 0
for r in rows:
    f = flows[int(r["id"])]
    assert f["after"] == r["after"], (r["id"], f["after"], r["after"])
    after = [int(a) for a in r["after"].split()]
    if not after:
        continue
    waiting += 1
    started = Decimal(f["started_ns"])
    ready = max(Decimal(flows[a]["finish_ns"]) for a in after) + Decimal(r["delay_ns"])
    assert started >= ready, "message %s starts at %s, before %s" % (r["id"], started, ready)
print(waiting)
PY
}

run() {
  "$bin" run "$1" --out "$2" --seed "$seed" --quiet >/dev/null 2>"$work/stderr" ||
    fail "run $1: exit $?: $(cat "$work/stderr")"
}

for name in trace_htsim trace_hpcc trace_native default; do
  scenario="$root/scenarios/$name.textproto"
  run "$scenario" "$work/$name.a"
  "$bin" export "$scenario" -o "$work/$name.csv" --seed "$seed" 2>"$work/stderr" ||
    fail "$name: export: exit $?: $(cat "$work/stderr")"
  head -1 "$work/$name.csv" | grep -qx "id,src,dst,bytes,start_ns,after,delay_ns,dscp,job" ||
    fail "$name: export header: $(head -1 "$work/$name.csv")"
  replay_scenario "$scenario" "$work/$name.csv" "$work/$name.replay.textproto"
  run "$work/$name.replay.textproto" "$work/$name.b"
  cmp -s "$work/$name.a/flows.csv" "$work/$name.b/flows.csv" ||
    fail "$name: the replay's flows.csv differs: $(diff "$work/$name.a/flows.csv" "$work/$name.b/flows.csv" | head -5)"
  "$bin" export "$work/$name.replay.textproto" -o "$work/$name.again.csv" --seed "$seed" ||
    fail "$name: export of the replay: exit $?"
  cmp -s "$work/$name.csv" "$work/$name.again.csv" || fail "$name: the replay exports another file"
  run "$scenario" "$work/$name.c"
  cmp -s "$work/$name.a/flows.csv" "$work/$name.c/flows.csv" || fail "$name: two runs differ"
  waiting=$(check_dependencies "$work/$name.a/flows.csv" "$work/$name.csv") ||
    fail "$name: dependencies: $waiting"
  echo "$name: $(($(wc -l <"$work/$name.csv") - 1)) messages, $waiting waiting for others"
done
# The shipped traces do wait: 21 hops and the barrier's message; 4 steps and a write.
[ "$(check_dependencies "$work/trace_htsim.a/flows.csv" "$work/trace_htsim.csv")" = 21 ] ||
  fail "trace_htsim: expected 21 waiting messages"
[ "$(check_dependencies "$work/trace_native.a/flows.csv" "$work/trace_native.csv")" = 5 ] ||
  fail "trace_native: expected 5 waiting messages"

# Stdout, and the same bytes as the file.
"$bin" export "$root/scenarios/trace_native.textproto" --seed "$seed" >"$work/stdout" ||
  fail "export to stdout: exit $?"
cmp -s "$work/stdout" "$work/trace_native.csv" || fail "export to stdout differs from -o FILE"

# Refusals: exit 2 and a reason; an output that cannot be written: exit 1.
expect_exit() {
  local want=$1 pattern=$2
  shift 2
  "$bin" "$@" >"$work/stdout" 2>"$work/stderr"
  local rc=$?
  [ "$rc" -eq "$want" ] || fail "$*: exit $rc, want $want"
  grep -qE -- "$pattern" "$work/stderr" || fail "$*: stderr lacks /$pattern/: $(cat "$work/stderr")"
}
cat >"$work/bad_trace.textproto" <<PB
topology { fat_tree { k: 4 } }
traffic { trace {
  file: "$root/tests/data/traces/unknown_trigger.cm"
} }
PB
expect_exit 2 'bad_trace.textproto:3: traffic\[0\]\.trace\.file: .*unknown_trigger\.cm:5: trigger 2 is not defined' \
  export "$work/bad_trace.textproto"
expect_exit 2 'bad_trace.textproto:3: .*unknown_trigger\.cm:5:' run "$work/bad_trace.textproto"
expect_exit 2 "unknown option '--out'" export "$root/scenarios/default.textproto" --out x
expect_exit 2 "missing SCENARIO" export
expect_exit 1 "cannot write" export "$root/scenarios/default.textproto" -o "$work/no/such/dir/w.csv"
expect_exit 1 "cannot write" export "$root/scenarios/default.textproto" -o "$work"
# A full disk fails the command, on a file and on standard output alike (/dev/full: ENOSPC).
expect_exit 1 "cannot write /dev/full: No space left" export "$root/scenarios/default.textproto" \
  -o /dev/full
"$bin" export "$root/scenarios/default.textproto" >/dev/full 2>"$work/stderr"
[ $? -eq 1 ] || fail "export >/dev/full did not exit 1"
grep -q "cannot write standard output: No space left" "$work/stderr" ||
  fail "export >/dev/full: $(cat "$work/stderr")"
[ -c /dev/full ] || fail "export -o /dev/full replaced the device"

# -o FILE writes as a shell's > would: into a FIFO, through a symlink (the link kept).
"$bin" export "$root/scenarios/default.textproto" -o "$work/default.csv" || fail "export: exit $?"
mkfifo "$work/pipe"
cat "$work/pipe" >"$work/from_pipe" &
reader=$!
"$bin" export "$root/scenarios/default.textproto" -o "$work/pipe" || fail "export -o FIFO: exit $?"
wait "$reader"
[ -p "$work/pipe" ] || fail "export -o FIFO replaced the FIFO"
cmp -s "$work/from_pipe" "$work/default.csv" || fail "export -o FIFO: the reader got other bytes"
echo old >"$work/target.csv"
ln -s target.csv "$work/link.csv"
"$bin" export "$root/scenarios/default.textproto" -o "$work/link.csv" || fail "export -o link: exit $?"
[ -L "$work/link.csv" ] || fail "export -o link replaced the symlink"
cmp -s "$work/target.csv" "$work/default.csv" || fail "export -o link: the target was not written"

"$bin" export --help >"$work/help" || fail "export --help: exit $?"
grep -q "traffic { trace { file:" "$work/help" || fail "export --help does not teach the replay"

cli_finish "trace and export CLI"
