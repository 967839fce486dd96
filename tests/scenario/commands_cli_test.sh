#!/usr/bin/env bash
# The schedule and `run --events` as a user meets them: a run with a schedule writes events.csv,
# one row per command; its replay with --events writes the same flows.csv, queues.csv and
# summary.json (less the wall-clock fields) and the same events with source replay; a bad
# schedule entry or events row exits 2 with file:line, field path and reason, before anything
# runs.
# shellcheck source=cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"

cat > "$work/s.textproto" <<'PB'
name: "commands"
topology { fat_tree { k: 4 } routing { reconverge_delay_ns: 2000 } }
nic { cc { dcqcn {} } }
traffic { incast { senders: 6 receiver_host: 0 message_bytes: 500000 } }
traffic { permutation { message_bytes: 100000 } }
run { progress: false queue_sample_interval_ns: 5000 }
schedule { at_ns: 10000 set_ecn { role: "edge" priority: 3 wred { kmin_bytes: 10000 pmax: 0.5 } } }
schedule { at_ns: 20000 set_pfc { switch_name: "edge0" priority: 3 enabled: false } }
schedule { at_ns: 20000 set_dcqcn { dcqcn { additive_increase_mbps: 200 } } }
schedule { at_ns: 30000 set_link { link { a: "edge1" b: "agg1" } } }
PB

"$bin" run "$work/s.textproto" --out "$work/a" >/dev/null || fail "the scheduled run failed"
[ "$(wc -l <"$work/a/events.csv")" -eq 5 ] || fail "events.csv: want a header and 4 rows"
head -2 "$work/a/events.csv" | tail -1 | grep -q '^10000.000,schedule,"{""set_ecn"":' ||
  fail "events.csv's first row: $(head -2 "$work/a/events.csv" | tail -1)"

cp "$work/a/events.csv" "$work/events.csv"
"$bin" run "$work/s.textproto" --out "$work/b" --events "$work/events.csv" >/dev/null ||
  fail "the replay failed"
for f in flows.csv queues.csv; do
  cmp -s "$work/a/$f" "$work/b/$f" || fail "the replay's $f differs"
done
strip_wall() { grep -v -e '"wall_time_s"' -e '_per_wall_s"' "$1"; }
diff <(strip_wall "$work/a/summary.json") <(strip_wall "$work/b/summary.json") >/dev/null ||
  fail "the replay's summary.json differs beyond its wall-clock fields"
diff <(sed 's/,schedule,/,replay,/' "$work/a/events.csv") "$work/b/events.csv" >/dev/null ||
  fail "the replay's events.csv is not the run's with source replay"
# Replaying into the directory the events file lives in reads it before the run clears it.
"$bin" run "$work/s.textproto" --out "$work/a" --events "$work/a/events.csv" >/dev/null ||
  fail "replaying from the output directory failed"
cmp -s "$work/a/flows.csv" "$work/b/flows.csv" || fail "the in-place replay's flows.csv differs"

# Refusals: exit 2, the place and the field.
sed 's/kmin_bytes: 10000/kmin_bytes: -3/' "$work/s.textproto" >"$work/bad.textproto"
out=$("$bin" run "$work/bad.textproto" --out "$work/c" 2>&1)
[ $? -eq 2 ] || fail "a bad schedule entry: want exit 2"
echo "$out" | grep -qF "bad.textproto:7: schedule[0].set_ecn.wred.kmin_bytes: must be >= 0, got -3" ||
  fail "a bad schedule entry: $out"
[ ! -e "$work/c" ] || fail "a refused scenario created its output directory"
sed 's/""priority"":3,""enabled""/""priority"":9,""enabled""/' "$work/events.csv" >"$work/bad.csv"
out=$("$bin" run "$work/s.textproto" --out "$work/c" --events "$work/bad.csv" 2>&1)
[ $? -eq 2 ] || fail "a bad events row: want exit 2"
echo "$out" | grep -qF "bad.csv:3: set_pfc.priority: must be in [0, 7], got 9" ||
  fail "a bad events row: $out"
printf 'time,source,command\n' >"$work/header.csv"
out=$("$bin" run "$work/s.textproto" --out "$work/c" --events "$work/header.csv" 2>&1)
[ $? -eq 2 ] || fail "a bad events header: want exit 2"
echo "$out" | grep -qF "header.csv:1: the header must read time_ns,source,command" ||
  fail "a bad events header: $out"
out=$("$bin" run "$work/s.textproto" --realtime --events "$work/events.csv" 2>&1)
[ $? -eq 2 ] || fail "--events with --realtime: want exit 2"
out=$("$bin" run "$work/s.textproto" --out "$work/c" --events "$work" 2>&1)
[ $? -eq 2 ] || fail "--events DIRECTORY: want exit 2"
echo "$out" | grep -qF "$work: is a directory, not an events file" || fail "--events DIRECTORY: $out"
printf 'time_ns,source,command\n100,api,"{bad"\n' >"$work/json.csv"
out=$("$bin" run "$work/s.textproto" --out "$work/c" --events "$work/json.csv" 2>&1)
[ $? -eq 2 ] || fail "bad JSON in an events row: want exit 2"
[ "$(echo "$out" | wc -l)" -eq 1 ] && echo "$out" | grep -qF "json.csv:2: bad command JSON:" ||
  fail "bad JSON in an events row: not one line naming it: $out"

cli_finish commands_cli
