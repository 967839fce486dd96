#!/usr/bin/env bash
# Builds Release and runs the benchmarks: the shipped benchmark scenarios under /usr/bin/time -v
# (wall time, peak RSS, link packet-hops per wall second), then the Google Benchmark binary.
# Prints every command it runs so the figures can be reproduced. See docs/performance.md.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

usage() {
  cat <<'TEXT'
usage: scripts/bench.sh [--runs N] [--no-micro]

Installs what is missing, builds Release, runs the benchmark scenarios (bench_k8: 128 hosts,
bench_k16: 1,024 hosts) N times each and prints, per run, the process's wall time, peak RSS
and the event loop's packet-hops per wall second; then, per scenario, the best and the median
of the N runs, and the cost of a hop at k = 16 against one at k = 8 (from the medians). On a
shared machine the runs of one binary can differ by 25% or more: compare medians of several
runs, taken in the same hour.

  --runs N     runs of each scenario (default 5, at least 1)
  --no-micro   skip the Google Benchmark micro-benchmarks
  -h, --help   this text

Outputs of the last run of each scenario: out/<scenario>/summary.json, flows.csv, time.txt.
TEXT
}

runs=5
micro=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs)
      if [[ $# -lt 2 || ! "$2" =~ ^[1-9][0-9]*$ ]]; then
        echo "bench: --runs needs a whole number of runs, at least 1 (got '${2:-}')" >&2
        exit 2
      fi
      runs=$2
      shift 2
      ;;
    --no-micro)
      micro=0
      shift
      ;;
    -h | --help)
      usage
      exit 0
      ;;
    *)
      echo "bench: unknown option '$1' (see scripts/bench.sh --help)" >&2
      exit 2
      ;;
  esac
done

scenarios=(bench_k8 bench_k16)

# Prints the number stored under KEY in the JSON file FILE, or nothing if it is absent.
json_number() {
  local file=$1 key=$2
  if command -v python3 >/dev/null 2>&1; then
    python3 - "${file}" "${key}" <<'PY'
import json, sys

def find(node, key):
    if isinstance(node, dict):
        if key in node:
            return node[key]
        node = list(node.values())
    if isinstance(node, list):
        for child in node:
            found = find(child, key)
            if found is not None:
                return found
    return None

value = find(json.load(open(sys.argv[1])), sys.argv[2])
if value is not None:
    print(value)
PY
  else
    # The quotes around the key keep "packet_hops" from matching "packet_hops_per_wall_s".
    sed -n "s/.*\"${key}\"[[:space:]]*:[[:space:]]*\([-+0-9.eE]*\).*/\1/p" "${file}" | head -n 1
  fi
}

for name in "${scenarios[@]}"; do
  if [[ ! -f "scenarios/${name}.textproto" ]]; then
    echo "bench: scenarios/${name}.textproto is missing" >&2
    exit 1
  fi
done

scripts/install-deps.sh
scripts/build.sh Release build

medians=()
for name in "${scenarios[@]}"; do
  out_dir=out/${name}
  mkdir -p "${out_dir}"
  rates=()
  rss_max_kib=0
  for ((run = 1; run <= runs; run++)); do
    command=(/usr/bin/time -v -o "${out_dir}/time.txt"
      build/fabric-emu run "scenarios/${name}.textproto" --out "${out_dir}" --quiet)
    echo "bench: ${command[*]}   (run ${run} of ${runs})"
    "${command[@]}"

    wall=$(sed -n 's/.*Elapsed (wall clock) time.*: //p' "${out_dir}/time.txt")
    rss_kib=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "${out_dir}/time.txt")
    hops=$(json_number "${out_dir}/summary.json" packet_hops)
    run_s=$(json_number "${out_dir}/summary.json" wall_time_s)
    rate=$(json_number "${out_dir}/summary.json" packet_hops_per_wall_s)
    rates+=("${rate:-0}")
    if ((rss_kib > rss_max_kib)); then rss_max_kib=${rss_kib}; fi
    awk -v name="${name}" -v wall="${wall}" -v rss_kib="${rss_kib}" -v hops="${hops:-?}" \
      -v run_s="${run_s:-?}" -v rate="${rate:-0}" 'BEGIN {
        printf "bench: %s: process wall %s, peak RSS %.1f MiB, %s packet-hops in %s s of run",
               name, wall, rss_kib / 1024, hops, run_s
        if (rate + 0 > 0) printf ", %.2f M packet-hops/s, %.1f ns per hop", rate / 1e6, 1e9 / rate
        printf "\n"
      }'
  done
  sorted=$(printf '%s\n' "${rates[@]}" | sort -g)
  median=$(awk '{ v[NR] = $1 }
    END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }' <<<"${sorted}")
  best=$(tail -n 1 <<<"${sorted}")
  medians+=("${median}")
  awk -v name="${name}" -v runs="${runs}" -v best="${best}" -v median="${median}" \
    -v rss_kib="${rss_max_kib}" 'BEGIN {
      printf "bench: %s over %d runs: packet-hops/s best %.2f M, median %.2f M; peak RSS %.1f MiB\n",
             name, runs, best / 1e6, median / 1e6, rss_kib / 1024
    }'
done

# The issue's scaling target: a hop at the largest size costs at most 1.5x a hop at the smallest.
awk -v small="${medians[0]}" -v large="${medians[-1]}" \
  -v names="${scenarios[-1]} vs ${scenarios[0]}" 'BEGIN {
    if (small + 0 > 0 && large + 0 > 0)
      printf "bench: cost per hop (medians), %s: %.2fx\n", names, small / large
  }'

bench_binary=build/tests/bench/fabric_bench
if ((micro == 0)); then
  exit 0
elif [[ -x "${bench_binary}" ]]; then
  echo "bench: ${bench_binary}"
  "${bench_binary}"
else
  echo "bench: ${bench_binary} not built (is libbenchmark-dev installed?)"
fi
