#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer into build-fuzz/ (the ordinary g++ build in build/ is untouched),
# replays every committed corpus input, fuzzes each target for a bounded time and runs the unit
# tests of the layers below the dataplane under the same sanitizers.
#
#   scripts/fuzz.sh                   60 s per target (a third of it for the small parsers:
#                                     trace, command and report), then the sanitised unit tests
#   FUZZ_SECONDS=30 scripts/fuzz.sh   what CI runs
#   FUZZ_SECONDS=600 scripts/fuzz.sh  a longer search
#   FUZZ_TARGETS=frame_fuzz scripts/fuzz.sh
#
# Fails on any crash, hang (an input running over FUZZ_TIMEOUT seconds), leak or undefined
# behaviour. A failing input is left in build-fuzz/artifacts/<target>/ to replay:
#   build-fuzz/tests/fuzz/<target> FILE
# New inputs the search finds are kept in build-fuzz/corpus/<target>/ for the next local run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

seconds=${FUZZ_SECONDS:-60}
# A hang: the largest fabrics a scenario may describe take up to 7 s to validate sanitised
# (docs/reliability.md); no input needs three times that.
timeout_s=${FUZZ_TIMEOUT:-25}
build_dir=${FUZZ_BUILD_DIR:-build-fuzz}
read -r -a targets <<<"${FUZZ_TARGETS:-scenario_fuzz frame_fuzz trace_fuzz command_fuzz report_fuzz}"
# Unit tests that need no DPDK: the sanitizers check the code the fuzz targets reach through
# them, from the scheduler to the topology builders and congestion control. FUZZ_UNIT_TESTS=
# leaves them out.
read -r -a unit_tests <<<"${FUZZ_UNIT_TESTS-core_test topology_test congestion_test}"

# Bytes an input may have: enough for any shipped scenario (the largest is under 3 KB) and for
# a few jumbo-less frames, small enough that the search is not spent on large inputs.
max_len_of() {
  case "$1" in
    scenario_fuzz) echo 8192 ;;
    frame_fuzz) echo 4096 ;;
    # A trace's or an events file's rows, a command, a summary.json: a few KB shows every rule.
    trace_fuzz | command_fuzz) echo 4096 ;;
    report_fuzz) echo 16384 ;;
  esac
}
# Seconds of search of each target: the small parsers (a text format each, thousands of inputs
# a second) reach their coverage's plateau within seconds and get a third of FUZZ_SECONDS.
seconds_of() {
  case "$1" in
    scenario_fuzz | frame_fuzz) echo "${seconds}" ;;
    *) echo $(((seconds + 2) / 3)) ;;
  esac
}
# libFuzzer options of each target besides the common ones.
options_of() {
  case "$1" in
    scenario_fuzz) echo "-dict=${build_dir}/scenario_fuzz.dict" ;;
    *) echo "" ;;
  esac
}
# Read-only seed folders besides the target's own committed corpus.
seeds_of() {
  case "$1" in
    scenario_fuzz) echo "scenarios tests/data/bad" ;;
    *) echo "" ;;
  esac
}

scripts/install-deps.sh
# ccache (CMakeLists.txt) keys on paths relative to the checkout: another clone reuses the objects.
# This build carries line tables, for which ccache would also key on the build folder: it does not
# here, so a sanitizer's stack trace may name the files of the clone that compiled them first.
export CCACHE_BASEDIR="${PWD}" CCACHE_NOHASHDIR=1
echo "fuzz: cmake -S . -B ${build_dir} -DFE_FUZZ=ON (clang++, ASan + UBSan)"
# -O1 with line tables only: stack traces keep their file:line, and the build of every library
# takes a fifth less compile time than at -O2 -g, which is most of what this script costs in CI.
# Without NDEBUG: the model's invariants (assert) are checked on every input, which the release
# build cannot afford.
cmake -S . -B "${build_dir}" -DFE_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1" -DCMAKE_CXX_COMPILER=clang++ >/dev/null
echo "fuzz: cmake --build ${build_dir} --target ${targets[*]} ${unit_tests[*]}"
start=${SECONDS}
cmake --build "${build_dir}" -j"$(nproc)" --target "${targets[@]}" "${unit_tests[@]}"
echo "fuzz: built in $((SECONDS - start)) s"

# The scenario schema's field and enum value names, from the .proto files: mutations that insert
# whole words the parser knows reach the validator's rules far sooner than bytes alone.
grep -ohE '\b[A-Za-z_][A-Za-z0-9_]*[[:space:]]*=[[:space:]]*[0-9]+[[:space:]]*[;[]' proto/*.proto |
  sed -E 's/[[:space:]]*=.*//' | sort -u | sed -E 's/.*/"&"/' >"${build_dir}/scenario_fuzz.dict"

passed=0
failed=0
result() {  # name, exit code
  if (($2 == 0)); then
    passed=$((passed + 1))
    echo "fuzz: PASS $1"
  else
    failed=$((failed + 1))
    echo "fuzz: FAIL $1 (exit $2)"
  fi
}

for target in "${targets[@]}"; do
  bin="${build_dir}/tests/fuzz/${target}"
  corpus="tests/fuzz/corpus/${target}"
  work="${build_dir}/corpus/${target}"
  artifacts="${build_dir}/artifacts/${target}/"
  mkdir -p "${work}" "${artifacts}"
  read -r -a seeds <<<"$(seeds_of "${target}")"
  read -r -a options <<<"$(options_of "${target}")"
  # Every committed input first, one run each: the regression inputs of earlier findings.
  mapfile -t inputs < <(find "${corpus}" "${seeds[@]}" -type f | sort)
  echo "fuzz: ${target}: replaying ${#inputs[@]} inputs"
  code=0
  "${bin}" -timeout="${timeout_s}" -artifact_prefix="${artifacts}" "${inputs[@]}" \
    >"${build_dir}/${target}.replay.log" 2>&1 || code=$?
  ((code == 0)) || tail -40 "${build_dir}/${target}.replay.log"
  result "${target} replay" "${code}"
  echo "fuzz: ${target}: fuzzing for $(seconds_of "${target}") s"
  code=0
  "${bin}" -max_total_time="$(seconds_of "${target}")" -timeout="${timeout_s}" -max_len="$(max_len_of "${target}")" \
    -print_final_stats=1 -artifact_prefix="${artifacts}" "${options[@]}" \
    "${work}" "${corpus}" "${seeds[@]}" \
    >"${build_dir}/${target}.log" 2>&1 || code=$?
  # The last status line: executions, coverage (cov: edges, ft: features) and speed.
  grep -E '^#[0-9]+' "${build_dir}/${target}.log" | tail -1 || true
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' \
    "${build_dir}/${target}.log" || true
  ((code == 0)) || tail -60 "${build_dir}/${target}.log"
  result "${target}" "${code}"
done

for test in "${unit_tests[@]}"; do
  echo "fuzz: ${test} under ASan + UBSan"
  code=0
  FABRIC_EMU_ROOT="${PWD}" "${build_dir}/tests/${test}" >"${build_dir}/${test}.log" 2>&1 ||
    code=$?
  tail -3 "${build_dir}/${test}.log"
  ((code == 0)) || grep -E 'FAILED|ERROR|runtime error' "${build_dir}/${test}.log" | head -40
  result "${test} (sanitized)" "${code}"
done

echo "fuzz: ${passed} passed, ${failed} failed"
((failed == 0))
