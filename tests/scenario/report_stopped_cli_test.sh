#!/usr/bin/env bash
# A run stopped before its workload finished keeps its outputs and its report, and gives no
# figure where nothing completed: tests/data/report/stopped_training.textproto stopped at 1 ms is
# in its first iteration's AllReduce (900 us of compute, then at least 252 us of ring), so
# iterations 1 and 2 never start; kv_cache_mooncake stopped at 1 us has sent no KV cache (its
# first prefill alone takes 6758 tokens x 6 us).
# shellcheck source=cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
training="$root/tests/data/report/stopped_training.textproto"
out="$work/train"

"$bin" run "$training" --out "$out" --set run.stop_ns=1000000 --report >"$work/stdout" \
  2>"$work/stderr" || fail "run --report, stopped: exit $?: $(cat "$work/stderr")"
[ -s "$out/report.html" ] || fail "a stopped run wrote no report.html"
"$bin" report "$out" >/dev/null 2>"$work/stderr" || fail "report: exit $?: $(cat "$work/stderr")"

# Iteration 0 started at the job's start and did not end; the others have no start at all.
printf '%s\n' \
  "job,iteration,start_ns,end_ns,time_ns,compute_ns,communication_share,checkpoint" \
  "t,0,0.000,,,900000.000,,false" \
  "t,1,,,,950000.000,,false" \
  "t,2,,,,950000.000,,false" >"$work/jobs.csv"
diff "$work/jobs.csv" "$out/jobs.csv" >&2 || fail "jobs.csv of the stopped run"
# The second and third AllReduces never started: every figure empty, the start too.
[ "$(grep -c '^t,all_reduce,ring,2097152,4,1,,,,,$' "$out/collectives.csv")" -eq 2 ] ||
  fail "collectives.csv: $(cat "$out/collectives.csv")"
grep -q "^# Avg bus bandwidth    : none$" "$work/stdout" || fail "average bus bandwidth: $(cat "$work/stdout")"
grep -q "^  job       t: 0 of 3 iterations, time none: no iteration completed$" "$work/stdout" ||
  fail "job line: $(cat "$work/stdout")"
python3 - "$out/summary.json" <<'PY' || fail "summary.json's iterations of the stopped run"
import json, sys
it = json.load(open(sys.argv[1]))["jobs"][0]["iterations"]
assert it == {"count": 3, "completed": 0,
              "time_ns": {"p50": None, "p99": None, "max": None},
              "communication_share": None}, it
PY
grep -q "Not started when the run ended, so not drawn: 2 iterations (jobs.csv) and 2 collective operations (collectives.csv)." \
  "$out/report.html" || fail "report.html does not count what never started"

# No KV cache delivered: no transfer percentile, null rather than 0.
kv="$work/kv"
"$bin" run "$root/scenarios/kv_cache_mooncake.textproto" --out "$kv" --set run.stop_ns=1000 \
  --quiet --report >"$work/stdout" 2>"$work/stderr" || fail "kv run --report: exit $?: $(cat "$work/stderr")"
grep -q "^  kv        serve: 0 of 11 requests, transfer none: no request completed; " "$work/stdout" ||
  fail "kv line: $(cat "$work/stdout")"
python3 - "$kv/summary.json" <<'PY' || fail "summary.json's kv_cache of the stopped run"
import json, sys
kv = json.load(open(sys.argv[1]))["kv_cache"][0]
none = {"p50": None, "p99": None, "p999": None, "max": None}
assert kv["requests_completed"] == 0, kv
assert kv["transfer_ns"] == kv["kv_ready_ns"] == kv["queueing_share"] == none, kv
PY

# A sweep over the stop time: the point without a completed iteration has empty iteration cells,
# the one that ran to the end (5 ms is past three iterations of about 1.2 ms) has figures.
"$bin" sweep "$training" --set run.stop_ns=1000000,5000000 --out "$work/sweep" --quiet --jobs 2 \
  >/dev/null 2>"$work/stderr" || fail "sweep: exit $?: $(cat "$work/stderr")"
python3 - "$work/sweep/sweep.csv" <<'PY' || fail "sweep.csv's iteration cells"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["status"] for r in rows] == ["ok", "ok"], rows
assert rows[0]["job.t.iteration_p50_ns"] == rows[0]["job.t.iteration_p99_ns"] == "", rows[0]
assert float(rows[1]["job.t.iteration_p50_ns"]) > 1.15e6, rows[1]
PY

cli_finish report_stopped_cli
