#!/bin/bash
# run --cores: every output of two cores is the same bytes as one core's (summary.json less its
# wall-clock fields), on every shipped scenario and on runs that stress what crosses between
# cores (tests/scenario/cores/: lossless incast with DCQCN and PFC, a lossy incast with
# retransmissions, HPCC, a CDF load); more cores than the machine's are refused (exit 2).
source "$(dirname "$0")/cli_lib.sh"
cores=$(nproc)

# Refusals, before anything runs: the option, and a scenario field above this machine's cores
# (valid elsewhere: `validate` warns, `--cores` overrides it).
out=$("$bin" run "$root/scenarios/default.textproto" --out "$work/x" --cores $((cores + 1)) 2>&1)
[ $? -eq 2 ] || fail "--cores $((cores + 1)) was not refused with exit 2"
echo "$out" | grep -q -- "--cores takes a whole number from 1 to $cores, the machine's cores" ||
  fail "--cores $((cores + 1)): unexpected message: $out"
printf 'name: "x"\ntopology { fat_tree { k: 4 } }\ntraffic { permutation { message_bytes: 1000 } }\nrun {\n  cores: %d\n}\n' \
  $((cores + 1)) >"$work/big.textproto"
out=$("$bin" run "$work/big.textproto" --out "$work/x" 2>&1)
[ $? -eq 2 ] || fail "run { cores: $((cores + 1)) } was not refused with exit 2"
echo "$out" | grep -q "big.textproto: run.cores: $((cores + 1)) is more than this machine's $cores cores" ||
  fail "run.cores: unexpected message: $out"
[ -e "$work/x" ] && fail "a refused run left outputs"
out=$("$bin" validate "$work/big.textproto" 2>&1) || fail "validate refused run.cores: $out"
echo "$out" | grep -q "warning: .*big.textproto: run.cores: $((cores + 1)) is more than" ||
  fail "validate gave no warning for run.cores: $out"
"$bin" run "$work/big.textproto" --out "$work/x" --cores 1 >/dev/null 2>&1 ||
  fail "--cores 1 did not override run { cores: $((cores + 1)) }"
"$bin" run "$work/big.textproto" --out "$work/x" --set run.cores=1 >/dev/null 2>&1 ||
  fail "--set run.cores=1 did not override run { cores: $((cores + 1)) }"
printf 'name: "x"\ntopology { fat_tree { k: 4 } }\ntraffic { permutation { message_bytes: 1000 } }\nrun {\n  cores: 0\n}\n' \
  >"$work/zero.textproto"
out=$("$bin" validate "$work/zero.textproto" 2>&1)
[ $? -eq 2 ] || fail "run { cores: 0 } was not refused with exit 2"
echo "$out" | grep -q "zero.textproto:5: run.cores: must be in \[1, 64\]" ||
  fail "run.cores 0: unexpected message: $out"

if [ "$cores" -lt 2 ]; then
  echo "cores_cli: one core here, no two-core run to compare"
  exit 77
fi

# Runs SCENARIO on 1 and 2 cores and compares every file. MUST_SPLIT: the two-core run must
# really run on two cores (no note that it stayed on one).
compare() {
  local scenario=$1 must_split=$2 name
  name=$(basename "$scenario" .textproto)
  for c in 1 2; do
    "$bin" run "$scenario" --out "$work/$name.$c" --cores $c >/dev/null 2>"$work/$name.$c.err" ||
      fail "$name: --cores $c exited $?: $(cat "$work/$name.$c.err")"
  done
  if [ "$must_split" = yes ] && grep -q "running on one core" "$work/$name.2.err"; then
    fail "$name: --cores 2 stayed on one core: $(cat "$work/$name.2.err")"
  fi
  [ "$(ls "$work/$name.1")" = "$(ls "$work/$name.2")" ] || fail "$name: different files"
  for f in "$work/$name.1"/*; do
    local n
    n=$(basename "$f")
    if [ "$n" = summary.json ]; then
      cmp -s <(grep -v '"wall_time_s"\|_per_wall_s"' "$f") \
        <(grep -v '"wall_time_s"\|_per_wall_s"' "$work/$name.2/$n") ||
        fail "$name: summary.json differs beyond its wall-clock fields"
    else
      cmp -s "$f" "$work/$name.2/$n" || fail "$name: $n differs"
    fi
  done
}

for s in "$root"/tests/scenario/cores/*.textproto "$root/scenarios/bench_k8.textproto"; do
  compare "$s" yes
done
for s in "$root"/scenarios/*.textproto; do
  [ "$(basename "$s")" = bench_k8.textproto ] || compare "$s" no
done
cli_finish cores_cli
