#!/usr/bin/env bash
# Builds Release and runs the benchmarks: the shipped benchmark scenarios under /usr/bin/time -v
# (wall time, peak RSS, link packet-hops per wall second), then the Google Benchmark binary.
# Prints every command it runs so the figures can be reproduced. See docs/performance.md.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

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

rates=()
for name in "${scenarios[@]}"; do
  out_dir=out/${name}
  mkdir -p "${out_dir}"
  command=(/usr/bin/time -v -o "${out_dir}/time.txt"
    build/fabric-emu run "scenarios/${name}.textproto" --out "${out_dir}")
  echo "bench: ${command[*]}"
  "${command[@]}"

  wall=$(sed -n 's/.*Elapsed (wall clock) time.*: //p' "${out_dir}/time.txt")
  rss_kib=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "${out_dir}/time.txt")
  hops=$(json_number "${out_dir}/summary.json" packet_hops)
  run_s=$(json_number "${out_dir}/summary.json" wall_time_s)
  rate=$(json_number "${out_dir}/summary.json" packet_hops_per_wall_s)
  rates+=("${rate:-0}")
  awk -v name="${name}" -v wall="${wall}" -v rss_kib="${rss_kib}" -v hops="${hops:-?}" \
    -v run_s="${run_s:-?}" -v rate="${rate:-0}" 'BEGIN {
      printf "bench: %s: process wall %s, peak RSS %.1f MiB, %s packet-hops in %s s of run",
             name, wall, rss_kib / 1024, hops, run_s
      if (rate + 0 > 0) printf ", %.2f M packet-hops/s, %.1f ns per hop", rate / 1e6, 1e9 / rate
      printf "\n"
    }'
done

# The issue's scaling target: a hop at the largest size costs at most 1.5x a hop at the smallest.
awk -v small="${rates[0]}" -v large="${rates[-1]}" \
  -v names="${scenarios[-1]} vs ${scenarios[0]}" 'BEGIN {
    if (small + 0 > 0 && large + 0 > 0)
      printf "bench: cost per hop, %s: %.2fx\n", names, small / large
  }'

bench_binary=build/tests/bench/fabric_bench
if [[ -x "${bench_binary}" ]]; then
  echo "bench: ${bench_binary}"
  "${bench_binary}"
else
  echo "bench: ${bench_binary} not built (is libbenchmark-dev installed?)"
fi
