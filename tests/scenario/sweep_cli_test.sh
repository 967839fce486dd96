#!/usr/bin/env bash
# `fabric-emu sweep` as a user meets it: a 2x2 grid makes 4 point directories and a sweep.csv
# whose rows are the points' summary.json figures; the same sweep writes the same bytes; a
# second run resumes (re-running only a point removed, or every point whose scenario changed);
# a grid with one refused point runs nothing; `run --set` shares the overrides.
# shellcheck source=cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"

base="$work/base.textproto"
cat >"$base" <<'PB'
name: "base"
topology { fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 } }
traffic { permutation { message_bytes: 1048576 } }
run { seed: 1 progress: false }
PB
grid=(--set topology.fat_tree.k=2,4 --set 'traffic[0].permutation.message_bytes=4096,65536')

"$bin" sweep "$base" "${grid[@]}" --jobs 2 --out "$work/a" >"$work/stdout" 2>"$work/stderr"
rc=$?
[ "$rc" -eq 0 ] || fail "2x2 sweep: exit $rc: $(cat "$work/stderr")"
grep -q "sweep: 4 points: 4 run, 0 resumed, 0 failed" "$work/stdout" ||
  fail "2x2 sweep: no closing line: $(cat "$work/stdout")"
grep -q "^sweep: 4/4 done, 0 running, 0 failed" "$work/stderr" ||
  fail "2x2 sweep: no progress line for the last point: $(cat "$work/stderr")"
dirs=$(find "$work/a" -mindepth 1 -maxdepth 1 -type d -name 'point-*' | wc -l)
[ "$dirs" -eq 4 ] || fail "2x2 sweep: $dirs point directories, want 4"

# Each row against its point's own summary.json and point.textproto. The figures a fat-tree
# and a permutation fix: k^3/4 hosts, each sending one message and receiving one, so every
# message completes and bytes_delivered = hosts x message_bytes.
python3 - "$work/a" <<'PY' || fail "2x2 sweep: sweep.csv does not match the points"
import csv, json, os, re, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(out, "sweep.csv"))))
assert len(rows) == 4, len(rows)
want_grid = [("2", "4096"), ("2", "65536"), ("4", "4096"), ("4", "65536")]
for i, r in enumerate(rows):
    k, size = r["topology.fat_tree.k"], r["traffic[0].permutation.message_bytes"]
    assert (k, size) == want_grid[i], (i, k, size)
    assert r["point"] == str(i) and r["status"] == "ok", r
    assert r["dir"] == f"point-{i:03d}-k={k}-message_bytes={size}", r["dir"]
    point = os.path.join(out, r["dir"])
    text = open(os.path.join(point, "point.textproto")).read()
    assert re.search(rf"^\s*k: {k}$", text, re.M), "k not in the point's scenario"
    assert re.search(rf"^\s*message_bytes: {size}$", text, re.M), "size not in its scenario"
    s = json.load(open(os.path.join(point, "summary.json")))
    hosts = int(k) ** 3 // 4
    assert s["hosts"] == hosts, (s["hosts"], hosts)
    assert s["bytes_delivered"] == hosts * int(size), s["bytes_delivered"]
    queues = s["switch_queues"]
    want = {
        "flows_completed": s["flows_completed"], "flows_total": s["flows_total"],
        "fct_p50_ns": s["fct_ns"]["p50"], "fct_p99_ns": s["fct_ns"]["p99"],
        "slowdown_p50": s["slowdown"]["p50"], "slowdown_p99": s["slowdown"]["p99"],
        "simulated_time_ns": s["simulated_time_ns"],
        "goodput_gbps": 8 * s["bytes_delivered"] / s["simulated_time_ns"],
        "bytes_delivered": s["bytes_delivered"], "drops": s["drops"]["packets"],
        "ecn_marks": sum(q["ecn_marks"] for q in queues),
        "pause_frames": sum(q["pause_frames_sent"] for q in queues),
        "cnps": s["cnps"]["sent"], "retransmitted_packets": s["retransmissions"]["packets"],
        "max_queue_bytes": max([q["max_depth_bytes"] for q in queues] or [0]),
    }
    assert s["flows_completed"] == s["flows_total"] == hosts
    for col, v in want.items():
        # The same double: the CSV writes the shortest text that reads back exactly.
        assert float(r[col]) == float(v), (r["dir"], col, r[col], v)
PY

# sweep.html: every marker of the chart of a figure against a field is a point of sweep.csv,
# (the field's value, the figure), and every finished point has its marker.
python3 - "$work/a" <<'PY' || fail "2x2 sweep: sweep.html's charts do not plot sweep.csv"
import csv, os, sys
from collections import Counter
from html.parser import HTMLParser
out = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(out, "sweep.csv"))))
class Charts(HTMLParser):
    def __init__(self):
        super().__init__()
        self.charts, self.title = {}, None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg":
            self.title = a["aria-label"]
            self.charts[self.title] = Counter()
        elif tag == "circle" and "data-x" in a:
            self.charts[self.title][(float(a["data-x"]), float(a["data-y"]))] += 1
p = Charts()
p.feed(open(os.path.join(out, "sweep.html")).read())
axes = {"k": "topology.fat_tree.k", "message_bytes": "traffic[0].permutation.message_bytes"}
figures = [c for c in rows[0] if c not in ("point", "dir", "status", "flows_total",
                                           "bytes_delivered") and c not in axes.values()]
assert len(p.charts) == len(axes) * len(figures), (len(p.charts), sorted(p.charts))
for label, path in axes.items():
    for f in figures:
        want = Counter((float(r[path]), float(r[f])) for r in rows)
        got = p.charts[f"{f} against {label}"]
        assert got == want, (f, label, got, want)
PY

# A browser renders sweep.html without a console message and finds every chart in it (2 fields
# x 13 charted figures). Skipped where no headless Chromium is installed.
if command -v chromium >/dev/null; then
  chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
    --user-data-dir="$work/chromium" --dump-dom "file://$work/a/sweep.html" \
    >"$work/dom.html" 2>"$work/chromium.log" || fail "chromium could not render sweep.html"
  ! grep -q "CONSOLE" "$work/chromium.log" ||
    fail "sweep.html: console messages: $(grep CONSOLE "$work/chromium.log")"
  charts=$(grep -o 'class="chart xy"' "$work/dom.html" | wc -l)
  [ "$charts" -eq 26 ] || fail "sweep.html: the browser found $charts charts, want 26"
else
  echo "sweep_cli: no chromium, sweep.html not rendered"
fi

# Same sweep, same bytes: the table depends on the scenario and the grid alone.
"$bin" sweep "$base" "${grid[@]}" --jobs 1 --out "$work/b" --quiet >/dev/null 2>&1 ||
  fail "second sweep failed"
cmp -s "$work/a/sweep.csv" "$work/b/sweep.csv" || fail "the same sweep wrote another sweep.csv"
cmp -s "$work/a/sweep.html" "$work/b/sweep.html" || fail "the same sweep wrote another sweep.html"

# Resume: only the removed point runs again, and the table comes out the same.
rm -rf "$work/a/point-002-k=4-message_bytes=4096"
"$bin" sweep "$base" "${grid[@]}" --out "$work/a" >"$work/stdout" 2>"$work/stderr" ||
  fail "resumed sweep failed: $(cat "$work/stderr")"
grep -q "sweep: 4 points: 1 run, 3 resumed, 0 failed" "$work/stdout" ||
  fail "resume: want 1 run and 3 resumed: $(cat "$work/stdout")"
[ "$(grep -c ' ok in ' "$work/stderr")" -eq 1 ] && grep -q "point-002-k=4-message_bytes=4096 ok" \
  "$work/stderr" || fail "resume: not only point 2 ran: $(cat "$work/stderr")"
cmp -s "$work/a/sweep.csv" "$work/b/sweep.csv" || fail "a resumed sweep wrote another sweep.csv"

# A changed base scenario changes every point's scenario: all run again.
sed -i 's/link_delay_ns: 1000/link_delay_ns: 500/' "$base"
"$bin" sweep "$base" "${grid[@]}" --out "$work/a" >"$work/stdout" 2>/dev/null ||
  fail "sweep of the changed scenario failed"
grep -q "sweep: 4 points: 4 run, 0 resumed, 0 failed" "$work/stdout" ||
  fail "changed scenario: want every point run again: $(cat "$work/stdout")"
grep -q "link_delay_ns: 500" "$work/a/point-000-k=2-message_bytes=4096/point.textproto" ||
  fail "changed scenario: the point's point.textproto was not rewritten"

# A point's scenario runs alone, from its folder, to the same summary figures.
(cd "$work/a/point-003-k=4-message_bytes=65536" &&
  "$bin" run point.textproto --out "$work/alone" --quiet >/dev/null 2>&1) ||
  fail "a point's point.textproto does not run alone"
python3 - "$work/a/point-003-k=4-message_bytes=65536/summary.json" "$work/alone/summary.json" <<'PY' ||
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for s in (a, b):
    for k in ("wall_time_s", "packet_hops_per_wall_s", "events_per_wall_s"):
        s.pop(k)
assert a == b, "a point run alone differs from the sweep's run"
PY
  fail "a point run alone differs from the sweep's"

# A point whose run fails: the others run, the sweep exits 1 naming the point and the reason,
# sweep.csv has its figures, and a second run runs it again. A bit-error rate of 1e-3 loses
# every 4 KB frame (1 - (1 - 1e-3)^(8 x 4158) is 1 - 4e-15), so the sender gives up.
cat >"$work/noisy.textproto" <<'PB'
topology {
  link_class { name: "noisy" rate_gbps: 100 delay_ns: 1000 bit_error_rate: 0 }
  fat_tree { k: 2 link_class: "noisy" }
}
traffic { flow_list { flow { src_host: 0 dst_host: 1 message_bytes: 4096 } } }
PB
noisy=(--set 'topology.link_class[0].bit_error_rate=0,1e-3' --out "$work/noisy")
"$bin" sweep "$work/noisy.textproto" "${noisy[@]}" >"$work/stdout" 2>"$work/stderr"
rc=$?
[ "$rc" -eq 1 ] || fail "failing point: exit $rc, want 1"
grep -q "point-001-bit_error_rate=1e-3 failed (exit 1): run failed: no progress: 1 flows given up" \
  "$work/stderr" || fail "failing point: not named with its reason: $(cat "$work/stderr")"
python3 - "$work/noisy/sweep.csv" <<'PY' || fail "failing point: sweep.csv is wrong"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["status"] for r in rows] == ["ok", "failed"], rows
assert rows[0]["flows_completed"] == "1" and rows[1]["flows_completed"] == "0", rows
assert rows[0]["drops"] == "0" and int(rows[1]["drops"]) > 0, rows
PY
"$bin" sweep "$work/noisy.textproto" "${noisy[@]}" >"$work/stdout" 2>/dev/null
grep -q "sweep: 2 points: 1 run, 1 resumed, 1 failed" "$work/stdout" ||
  fail "failing point: a second run must run it again and resume the other: $(cat "$work/stdout")"

# --report: each point's run writes its report.html, which sweep.html links to; a point that
# finished without one runs again to write it.
"$bin" sweep "$base" --set topology.fat_tree.k=2,4 --out "$work/rep" --quiet >/dev/null 2>&1 ||
  fail "sweep without --report failed"
"$bin" sweep "$base" --set topology.fat_tree.k=2,4 --out "$work/rep" --report >"$work/stdout" \
  2>/dev/null || fail "sweep --report failed"
grep -q "sweep: 2 points: 2 run, 0 resumed, 0 failed" "$work/stdout" ||
  fail "--report: points without a report must run again: $(cat "$work/stdout")"
for p in point-000-k=2 point-001-k=4; do
  [ -s "$work/rep/$p/report.html" ] || fail "--report: no $p/report.html"
  grep -qF "href=\"$p/report.html\"" "$work/rep/sweep.html" || fail "--report: no link to $p"
done

# One refused point refuses the grid: exit 2, the point named, nothing written.
"$bin" sweep "$base" --set topology.fat_tree.k=2,3,4 --out "$work/refused" >/dev/null \
  2>"$work/stderr"
rc=$?
[ "$rc" -eq 2 ] || fail "refused grid: exit $rc, want 2"
grep -q "point 1 (k=3) is refused:" "$work/stderr" &&
  grep -q "topology.fat_tree.k: must be an even number from 2 to 64, got 3" "$work/stderr" ||
  fail "refused grid: point 1 not named with its reason: $(cat "$work/stderr")"
[ ! -e "$work/refused" ] || fail "refused grid: it wrote $work/refused"

# Override errors on the command line: exit 2 and the message.
check_refused() {
  local want=$1
  shift
  "$bin" "$@" >/dev/null 2>"$work/stderr"
  local rc=$?
  [ "$rc" -eq 2 ] || fail "$*: exit $rc, want 2"
  grep -qF -- "$want" "$work/stderr" || fail "$*: no '$want' in: $(cat "$work/stderr")"
}
check_refused '--set topology.fat_tree.link_rat_gbps: no field "link_rat_gbps" in FatTree; fields are k, link_rate_gbps, link_delay_ns, link_class' \
  sweep "$base" --set topology.fat_tree.link_rat_gbps=400,800 --out "$work/x"
check_refused '--set topology.fat_tree.link_rate_gbps=fast: link_rate_gbps (double): takes a finite number, got "fast"' \
  sweep "$base" --set topology.fat_tree.link_rate_gbps=400,fast --out "$work/x"
check_refused '--set topology.fat_tree.k=4294967296: k (int32): out of range: takes -2147483648 to 2147483647, got "4294967296"' \
  run "$base" --set topology.fat_tree.k=4294967296 --out "$work/x"
check_refused '--set traffic[1].permutation.message_bytes: traffic[1]: no such element: the scenario has 1 traffic entry, [0]' \
  run "$base" --set 'traffic[1].permutation.message_bytes=1' --out "$work/x"
check_refused '(run takes one value; `fabric-emu sweep` runs a list)' \
  run "$base" --set topology.fat_tree.link_rate_gbps=400,800 --out "$work/x"
[ ! -e "$work/x" ] || fail "a refused override wrote $work/x"

# run --set: the value reaches the run (k=2: 2 hosts).
"$bin" run "$base" --set topology.fat_tree.k=2 --out "$work/set" --quiet >/dev/null 2>&1 ||
  fail "run --set failed"
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["hosts"] == 2' \
  "$work/set/summary.json" || fail "run --set topology.fat_tree.k=2 did not give 2 hosts"

cli_finish "sweep_cli"
