#!/usr/bin/env bash
# `fabric-emu report` and `run --report`: a page that headless Chromium renders without a console
# message, whose plotted points are the rows of flows.csv and the figures of summary.json
# (report_check.py), byte-identical when drawn twice; sections without data say how to get it;
# bad input is refused with exit 2 and the file and line at fault.
# shellcheck source=cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
here=$(dirname "${BASH_SOURCE[0]}")
scenario="$root/tests/data/report/congested.textproto"
out="$work/congested"

"$bin" run "$scenario" --out "$out" --report >"$work/stdout" 2>"$work/stderr" ||
  fail "run --report: exit $?: $(cat "$work/stderr")"
grep -q "^report    $out/report.html$" "$work/stdout" || fail "run --report: $(cat "$work/stdout")"
[ -s "$out/report.html" ] || fail "run --report wrote no report.html"

# The same directory gives the same bytes, from `run --report` and from `report`.
cp "$out/report.html" "$work/first.html"
"$bin" report "$out" >"$work/stdout" 2>"$work/stderr" || fail "report: exit $?: $(cat "$work/stderr")"
cmp -s "$work/first.html" "$out/report.html" || fail "report drew different bytes the second time"
"$bin" report "$out/" >"$work/stdout" 2>&1 || fail "report OUTDIR/: exit $?"
grep -q "^report    $out/report.html$" "$work/stdout" || fail "report OUTDIR/: $(cat "$work/stdout")"

python3 "$here/report_check.py" "$out" || fail "report.html does not match the run's outputs"

# Headless Chromium renders it: a PNG, and not one console message (a script error, a resource
# the page's policy refused, a parse problem all print as CONSOLE lines with logging on stderr).
if ! command -v chromium >/dev/null; then
  fail "chromium is not installed: scripts/install-deps.sh installs it"
else
  # Its own profile: nothing of the user's, nothing left behind.
  timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$work/chromium" --enable-logging=stderr --v=0 \
    --window-size=1200,4000 --screenshot="$work/report.png" "file://$out/report.html" \
    >"$work/chromium.out" 2>"$work/chromium.err" || fail "chromium: exit $?: $(cat "$work/chromium.err")"
  if grep -q ":CONSOLE" "$work/chromium.err"; then
    fail "console messages: $(grep ":CONSOLE" "$work/chromium.err")"
  fi
  python3 - "$work/report.png" <<'PY' || fail "the screenshot is not a drawn page"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
width, height = struct.unpack(">II", data[16:24])
assert (width, height) == (1200, 4000), (width, height)
# The image data, inflated: a blank page deflates to almost nothing, and its bytes are few
# distinct values; charts, heatmaps and text are many colours.
chunks, pos = b"", 8
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if kind == b"IDAT":
        chunks += data[pos + 8:pos + 8 + n]
    pos += 12 + n
raw = zlib.decompress(chunks)
assert len(set(raw)) > 64, f"{len(set(raw))} distinct byte values: a blank page"
PY
fi

# A run without sampling: the queue and rate sections say which field records them.
plain="$work/plain"
"$bin" run "$root/scenarios/default.textproto" --out "$plain" --quiet --report >/dev/null 2>&1 ||
  fail "run default --report: exit $?"
grep -q "<code>run.queue_sample_interval_ns</code>" "$plain/report.html" ||
  fail "the queue section does not name run.queue_sample_interval_ns"
grep -q "<code>run.rate_sample_interval_ns</code>" "$plain/report.html" ||
  fail "the rate section does not name run.rate_sample_interval_ns"
grep -q "<code>topology.failure</code>" "$plain/report.html" ||
  fail "the events section does not say where failures come from"
# A re-run without --report removes the report of the run before: it would describe another run.
"$bin" run "$root/scenarios/default.textproto" --out "$plain" --quiet >/dev/null 2>&1
[ ! -e "$plain/report.html" ] || fail "a re-run left the previous run's report.html"

# Bad input: exit 2 and a reason.
expect_refusal() {  # DESCRIPTION PATTERN ARGS...
  local what=$1 pattern=$2
  shift 2
  "$bin" "$@" >/dev/null 2>"$work/err"
  local status=$?
  [ "$status" -eq 2 ] || fail "$what: exit $status, expected 2"
  grep -qE -- "$pattern" "$work/err" || fail "$what: message $(cat "$work/err")"
}
expect_refusal "no OUTDIR" "missing OUTDIR" report
expect_refusal "missing OUTDIR" "$work/none: no such directory" report "$work/none"
mkdir "$work/empty"
expect_refusal "no summary.json" "$work/empty/summary.json: not found" report "$work/empty"

bad="$work/bad"
cp -r "$out" "$bad"
printf '4000.000,edge0,2\n' >>"$bad/queues.csv"
lines=$(wc -l <"$bad/queues.csv")
expect_refusal "short queues.csv row" "queues.csv:$lines: 3 fields, the header has 5" report "$bad"
cp "$out/queues.csv" "$bad/queues.csv"
awk -F, -v OFS=, 'NR == 3 { $4 = "12ab" } 1' "$out/flows.csv" >"$bad/flows.csv"
expect_refusal "bad flows.csv number" "flows.csv:3: column 'size_bytes': '12ab' is not a number" \
  report "$bad"
cp "$out/flows.csv" "$bad/flows.csv"
printf 'time_ns,source,command\n5000,schedule,"unclosed\n' >"$bad/events.csv"
expect_refusal "unclosed quote in events.csv" "events.csv:2: a quoted field is not closed" report "$bad"
# Any field of summary.json of a wrong type or range is refused (2) or drawn around (0), never a
# crash: each field down to the second level, in turn, replaced by values of every JSON type.
cp "$out/summary.json" "$work/summary.json"
python3 - "$bin" "$work/summary.json" "$bad" <<'PY' || fail "a malformed summary.json crashed report"
import copy, json, subprocess, sys
binary, source, target = sys.argv[1:]
base = json.load(open(source))
values = [1e300, "x", [{"switch": 5}], {"events": [{"at_ns": "x"}]}, None]
def paths(node, path=()):
    if path:
        yield path
    if len(path) < 2 and isinstance(node, dict):
        for key, child in node.items():
            yield from paths(child, path + (key,))
    elif len(path) < 2 and isinstance(node, list) and node:
        yield from paths(node[0], path + (0,))
runs = 0
for path in paths(base):
    for value in values:
        doc = copy.deepcopy(base)
        node = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        json.dump(doc, open(f"{target}/summary.json", "w"))
        status = subprocess.run([binary, "report", target], capture_output=True).returncode
        runs += 1
        assert status in (0, 2), f"{'.'.join(map(str, path))} = {value!r}: exit {status}"
print(f"{runs} malformed summaries, none crashed")
PY
printf '{"scenario": ' >"$bad/summary.json"
expect_refusal "broken summary.json" "summary.json: not a JSON object" report "$bad"
# A field 300,000 arrays deep: refused at the JSON guard's 64 levels, where the page once
# overflowed the stack writing the value out (SIGSEGV). The 64th '[' after '{"seed": ' is byte 73.
python3 -c 'import sys; sys.stdout.write("{\"seed\": " + "[" * 300000 + "]" * 300000 + "}")' \
  >"$bad/summary.json"
expect_refusal "deep summary.json" \
  "summary.json: not a run's summary: nested deeper than 64 levels at byte 73" report "$bad"

cli_finish report_cli
