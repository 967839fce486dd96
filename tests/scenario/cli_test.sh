#!/usr/bin/env bash
# The fabric-emu command line as a user meets it: a run writes its outputs and exits 0; every bad
# scenario is refused before anything runs, with exit 2 and a message naming file, line and field.
# shellcheck source=cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"

# expect_refusal FILE PATTERN: exit 2, no output directory, message matching PATTERN on stderr.
expect_refusal() {
  local file=$1 pattern=$2 out="$work/out-refused"
  rm -rf "$out"
  "$bin" run "$file" --out "$out" >"$work/stdout" 2>"$work/stderr"
  local rc=$?
  [ "$rc" -eq 2 ] || fail "$file: exit $rc, want 2"
  grep -qE -- "$pattern" "$work/stderr" || fail "$file: stderr lacks /$pattern/: $(cat "$work/stderr")"
  [ ! -e "$out" ] || fail "$file: refused, yet $out was created"
}

# A good run.
"$bin" run "$root/scenarios/default.textproto" --out "$work/out" --seed 3 >"$work/stdout" 2>"$work/stderr"
rc=$?
[ "$rc" -eq 0 ] || fail "default scenario: exit $rc: $(cat "$work/stderr")"
[ -s "$work/out/summary.json" ] || fail "no summary.json"
[ -s "$work/out/flows.csv" ] || fail "no flows.csv"
grep -q '"seed": 3' "$work/out/summary.json" || fail "--seed not applied"
# One CSV row per message: the k = 4 default permutation has 16.
rows=$(($(wc -l <"$work/out/flows.csv") - 1))
[ "$rows" -eq 16 ] || fail "flows.csv has $rows rows, want 16"

# Bad input, each refused with file:line and the field.
cat >"$work/odd_k.textproto" <<'PB'
name: "odd"
topology {
  fat_tree { k: 5 }
}
traffic { permutation { message_bytes: 1000 } }
PB
expect_refusal "$work/odd_k.textproto" 'odd_k.textproto:3:.*topology\.fat_tree\.k'

cat >"$work/negative_rate.textproto" <<'PB'
topology { fat_tree {
  k: 4
  link_rate_gbps: -100 } }
traffic { permutation { message_bytes: 1000 } }
PB
expect_refusal "$work/negative_rate.textproto" 'negative_rate.textproto:3:.*link_rate_gbps'

cat >"$work/unknown_field.textproto" <<'PB'
topology { fat_tree { k: 4 } }
traffic { permutation { message_bytes: 1000 colour: 3 } }
PB
expect_refusal "$work/unknown_field.textproto" 'unknown_field.textproto:2:.*colour'

cat >"$work/syntax.textproto" <<'PB'
topology { fat_tree { k: 4 }
traffic { permutation { message_bytes: 1000 } }
PB
expect_refusal "$work/syntax.textproto" 'syntax.textproto:[0-9]+'

expect_refusal "$work/does_not_exist.textproto" 'does_not_exist.textproto'

# Usage errors are exit 2 too; help is exit 0 and names the commands.
"$bin" run >/dev/null 2>&1
[ $? -eq 2 ] || fail "run without a scenario: want exit 2"
"$bin" run "$root/scenarios/default.textproto" --seed banana >/dev/null 2>&1
[ $? -eq 2 ] || fail "non-numeric seed: want exit 2"
"$bin" --help >"$work/help" 2>&1 || fail "--help exits non-zero"
grep -q "run" "$work/help" || fail "--help does not mention run"

cli_finish "cli"
