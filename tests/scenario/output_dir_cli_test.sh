#!/usr/bin/env bash
# The output directory as a user meets it: a re-run into a directory leaves only that run's
# outputs, a symlink at an output's name is replaced (its target untouched), and a directory the
# run cannot use is refused with exit 2 and the reason before anything runs.
# shellcheck source=cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"

out="$work/out"
cat >"$work/sampled.textproto" <<'PB'
name: "sampled"
topology { fat_tree { k: 2 } }
traffic { flow_list { flow { src_host: 0 dst_host: 1 message_bytes: 20000 } } }
run { seed: 1 rate_sample_interval_ns: 1000 }
PB
cat >"$work/plain.textproto" <<'PB'
name: "plain"
topology { fat_tree { k: 2 } }
traffic { flow_list { flow { src_host: 0 dst_host: 1 message_bytes: 20000 } } }
run { seed: 1 }
PB

# run SCENARIO: runs into $out; the exit code in $rc.
run() {
  "$bin" run "$1" --out "$out" --quiet >"$work/stdout" 2>"$work/stderr"
  rc=$?
}

# A re-run without rate sampling leaves no rates.csv of the run before.
run "$work/sampled.textproto"
[ "$rc" -eq 0 ] || fail "sampled run: exit $rc: $(cat "$work/stderr")"
[ -s "$out/rates.csv" ] || fail "sampled run wrote no rates.csv"
run "$work/plain.textproto"
[ "$rc" -eq 0 ] || fail "plain re-run: exit $rc: $(cat "$work/stderr")"
[ ! -e "$out/rates.csv" ] || fail "plain re-run left the previous run's rates.csv"
grep -q '"scenario": "plain"' "$out/summary.json" || fail "summary.json is not the re-run's"
leftovers=$(find "$out" -name '.*' -type f | wc -l)
[ "$leftovers" -eq 0 ] || fail "temporary files left in $out"

# A symlink named flows.csv pointing outside: replaced by the run's file, its target untouched.
echo "precious" >"$work/outside.csv"
rm -f "$out/flows.csv"
ln -s "$work/outside.csv" "$out/flows.csv"
run "$work/plain.textproto"
[ "$rc" -eq 0 ] || fail "run over a symlinked flows.csv: exit $rc: $(cat "$work/stderr")"
[ ! -L "$out/flows.csv" ] || fail "flows.csv is still a symlink"
head -1 "$out/flows.csv" | grep -q '^id,' || fail "flows.csv is not the run's"
[ "$(cat "$work/outside.csv")" = "precious" ] || fail "the symlink's target was written"

# A directory named flows.csv: refused before the run, with the reason; the run before's
# summary is left as it was.
cp "$out/summary.json" "$work/summary.before"
rm -f "$out/flows.csv"
mkdir "$out/flows.csv"
run "$work/plain.textproto"
[ "$rc" -eq 2 ] || fail "directory flows.csv: exit $rc, want 2"
grep -q "flows.csv exists and is a directory" "$work/stderr" ||
  fail "directory flows.csv: no reason given: $(cat "$work/stderr")"
[ ! -s "$work/stdout" ] || fail "directory flows.csv: the run ran: $(cat "$work/stdout")"
cmp -s "$out/summary.json" "$work/summary.before" || fail "a refused run changed summary.json"
rmdir "$out/flows.csv"

# A directory no file can be created in: refused before the run. Root ignores permission bits,
# so the check by mode runs only for other users; a path through a regular file fails for all.
if [ "$(id -u)" -ne 0 ]; then
  chmod 0555 "$out"
  run "$work/plain.textproto"
  chmod 0755 "$out"
  [ "$rc" -eq 2 ] || fail "unwritable directory: exit $rc, want 2"
  grep -q "is not writable" "$work/stderr" || fail "unwritable directory: $(cat "$work/stderr")"
fi
: >"$work/a_file"
out="$work/a_file/out"
run "$work/plain.textproto"
[ "$rc" -eq 2 ] || fail "output under a file: exit $rc, want 2"
grep -q "cannot create output directory $out" "$work/stderr" ||
  fail "output under a file: no reason given: $(cat "$work/stderr")"
out=/proc/self
run "$work/plain.textproto"
[ "$rc" -eq 2 ] || fail "/proc/self as output: exit $rc, want 2"
grep -q "/proc/self is not writable" "$work/stderr" ||
  fail "/proc/self as output: no reason given: $(cat "$work/stderr")"

# An output name that is one of the run's inputs (the scenario itself, a trace it replays) is
# refused before anything is removed: the run would delete or replace what it reads.
out="$work/inputs"
mkdir -p "$out"
"$bin" export "$root/scenarios/default.textproto" -o "$out/kv.csv" || fail "export: exit $?"
printf 'name: "t"\ntopology { fat_tree { k: 4 } }\ntraffic { trace { file: "kv.csv" } }\n' \
  >"$out/replay.textproto"
# refused_input WHAT FILE SCENARIO: the run of SCENARIO is refused for FILE, left as it was.
refused_input() {
  cp "$2" "$work/input.before"
  run "$3"
  [ "$rc" -eq 2 ] || fail "$1 inside --out: exit $rc, want 2"
  grep -q "output $2 is also an input of the run" "$work/stderr" ||
    fail "$1 inside --out: $(cat "$work/stderr")"
  cmp -s "$2" "$work/input.before" || fail "a refused run changed the $1"
}
refused_input trace "$out/kv.csv" "$out/replay.textproto"
cp "$work/plain.textproto" "$out/scenario.textproto"
refused_input scenario "$out/scenario.textproto" "$out/scenario.textproto"

# A disk that fills while the outputs are written: the run fails (exit 1, naming the file) and
# leaves no output at all, not a complete-looking flows.csv without its summary.json. A 64 KiB
# tmpfs in a mount namespace of the test's own (gone when the namespace ends, so the listing is
# taken inside it); where no namespace can be made, the check is left out and says so.
# At k = 8, summary.json (some 200 KB: every switch queue) does not fit, flows.csv (11 KB) does.
cat >"$work/k8.textproto" <<'PB'
name: "k8"
topology { fat_tree { k: 8 } }
traffic { permutation { message_bytes: 100000 } }
run { seed: 1 }
PB
if unshare -rm true 2>/dev/null; then
  mkdir -p "$work/tiny"
  # shellcheck disable=SC2016
  unshare -rm sh -c 'mount -t tmpfs -o size=64k tmpfs "$1" || exit 99
    "$2" run "$3" --out "$1/out" --quiet >/dev/null 2>"$1/../full.stderr"
    echo "exit $?"
    ls -A "$1/out"' sh "$work/tiny" "$bin" "$work/k8.textproto" \
    >"$work/full.txt" 2>&1 || true
  [ "$(head -1 "$work/full.txt")" = "exit 1" ] ||
    fail "run onto a full disk: $(cat "$work/full.txt") $(cat "$work/full.stderr" 2>/dev/null)"
  grep -q "cannot write $work/tiny/out/.*No space left on device" "$work/full.stderr" ||
    fail "run onto a full disk: $(cat "$work/full.stderr" 2>/dev/null)"
  [ "$(tail -n +2 "$work/full.txt")" = "" ] ||
    fail "a run that could not write its outputs left: $(tail -n +2 "$work/full.txt")"
else
  echo "note: no mount namespace here; the full-disk check is left out"
fi

cli_finish "output_dir_cli"
