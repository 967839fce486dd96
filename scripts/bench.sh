#!/usr/bin/env bash
# Builds Release and runs the benchmarks: the shipped benchmark scenarios at each core count, N
# times each, reporting start-up, whole-process wall time, peak RSS and packet-hops per second
# (medians), then the Google Benchmark binary. Prints every command it runs so the figures can
# be reproduced. See docs/performance.md.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

usage() {
  cat <<'TEXT'
usage: scripts/bench.sh [--runs N] [--cores-list "1 2"] [--no-build] [--binary FILE] [--no-micro]
                          [--large]

Installs what is missing, builds Release, then runs the benchmark scenarios (bench_k8: 128
hosts, bench_k16: 1,024 hosts) N times at each core count, the core counts alternating within
each round, and prints per run and then per scenario and core count, as medians of the N runs:

  start-up   wall time from the program's start to the first event (the run's own figure,
             printed in its summary; the dynamic loader before it takes under a millisecond)
  process    wall time of the whole process, from exec to exit (outputs written)
  outside    the process's wall time outside the event loop: start-up, writing the outputs
             and exiting
  peak RSS   the process's maximum resident set (/usr/bin/time)
  hops/s     the event loop's packet-hops per wall second (summary.json, packet_hops_per_wall_s)

then, per scenario, each core count against the first (hops/s and process wall time, and
whether flows.csv is the same), the time a cache line takes to pass between two cores before
and after the runs (BM_CacheLineBetweenCores, when build/tests/bench/fabric_bench is built: on
a virtual machine it moves with where the host puts the vCPUs, and the 2-core figures with it),
and the cost of a hop at k = 16 against one at k = 8. With more than one core count, each round
also runs one core pinned to each CPU the process may use (taskset): on a virtual machine one
vCPU can run the loop a third slower than another, and N lanes can give no more than the N
fastest CPUs together, so the script prints that ceiling beside the speed-up. On a shared
machine the runs of one binary can differ by 25% or more: compare medians of several runs,
taken in the same hour.

  --runs N           runs of each scenario at each core count (default 5, at least 1)
  --cores-list "L"   core counts to run, separated by spaces (default "1 2"); 1 runs with no
                     option, N > 1 with `run --cores N`
  --no-build         use build/fabric-emu as it is: no install, no build
  --binary FILE      run FILE instead of build/fabric-emu (implies --no-build), e.g. to measure
                     an earlier build: alternate the two in the same hour
  --no-micro         skip the Google Benchmark micro-benchmarks (build/tests/bench/fabric_bench)
  --large            run the large fabrics of scenarios/large/ instead (docs/scale.md): k = 32
                     without congestion control (8,192 hosts, about 12 s and 0.7 GB on two
                     cores), k = 64 with DCQCN (65,536 hosts, minutes and about 3 GB) and a
                     102,400-endpoint rail fabric's AllReduce (minutes, about 3 GB); try
                     --runs 1 --cores-list 2 --no-micro first
  -h, --help         this text

Outputs of the last run of each scenario and core count: out/<scenario>/cores<N>/summary.json,
flows.csv, stdout.txt and time.txt (out/<scenario>/cpu<N>/ for the pinned runs).
TEXT
}

runs=5
cores_list="1 2"
build=1
binary=build/fabric-emu
micro=1
large=0
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
    --cores-list)
      if [[ $# -lt 2 || ! "$2" =~ ^[[:space:]]*[1-9][0-9]*([[:space:]]+[1-9][0-9]*)*[[:space:]]*$ ]]; then
        echo "bench: --cores-list needs core counts of at least 1, separated by spaces" \
          "(got '${2:-}')" >&2
        exit 2
      fi
      cores_list=$2
      shift 2
      ;;
    --no-build)
      build=0
      shift
      ;;
    --binary)
      if [[ $# -lt 2 || ! -x "$2" ]]; then
        echo "bench: --binary needs an executable fabric-emu (got '${2:-}')" >&2
        exit 2
      fi
      binary=$2
      build=0
      shift 2
      ;;
    --no-micro)
      micro=0
      shift
      ;;
    --large)
      large=1
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
read -r -a cores_counts <<<"${cores_list}"

scenarios=(bench_k8 bench_k16)
if ((large == 1)); then
  scenarios=()
  for file in scenarios/large/*.textproto; do
    name=${file#scenarios/}
    scenarios+=("${name%.textproto}")
  done
fi

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

# The median of the numbers given as arguments.
median() {
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
    END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# The largest of the numbers given as arguments.
largest() {
  printf '%s\n' "$@" | sort -g | tail -n 1
}

for name in "${scenarios[@]}"; do
  if [[ ! -f "scenarios/${name}.textproto" ]]; then
    echo "bench: scenarios/${name}.textproto is missing" >&2
    exit 1
  fi
done

if ((build == 1)); then
  scripts/install-deps.sh
  scripts/build.sh Release build
fi
help_text=$("${binary}" run --help 2>&1 || true; "${binary}" --help 2>&1 || true)
for cores in "${cores_counts[@]}"; do
  if ((cores > 1)) && [[ "${help_text}" != *--cores* ]]; then
    echo "bench: ${binary} has no 'run --cores' option: use --cores-list 1" >&2
    exit 2
  fi
done

# The time one cache line takes to pass between two cores, in ns (BM_CacheLineBetweenCores), or
# nothing with one core count or no fabric_bench built (--no-micro still runs it): what every
# frame and event crossing between lanes pays; on a virtual machine it follows where the host
# puts the vCPUs.
bench_binary=build/tests/bench/fabric_bench
core_to_core_ns() {
  if ((${#cores_counts[@]} > 1)) && [[ -x "${bench_binary}" ]]; then
    "${bench_binary}" --benchmark_filter=BM_CacheLineBetweenCores 2>/dev/null |
      sed -n 's/.*ns_one_way=\([0-9.]*\).*/\1/p' | awk 'NR == 1 { printf "%.0f\n", $1 }'
  fi
}
line_before=$(core_to_core_ns)

# The CPUs this process may run on ("0-3,6" expanded), when the cores are compared and taskset is
# there: each round runs one core pinned to each of them.
pinned_cpus=()
if ((${#cores_counts[@]} > 1)) && command -v taskset >/dev/null 2>&1; then
  IFS=, read -r -a cpu_ranges <<<"$(taskset -cp $$ | sed 's/.*: *//')"
  for range in "${cpu_ranges[@]}"; do
    if [[ "${range}" =~ ^([0-9]+)-([0-9]+)$ ]]; then
      for ((cpu = BASH_REMATCH[1]; cpu <= BASH_REMATCH[2]; cpu++)); do pinned_cpus+=("${cpu}"); done
    elif [[ "${range}" =~ ^[0-9]+$ ]]; then
      pinned_cpus+=("${range}")
    fi
  done
fi

# Per scenario and core count ("<scenario> <cores>"): the figures of each run, space-separated.
declare -A startup_ms process_s outside_ms rss_kib rate pinned_rate
# Wall time of the process, in seconds, to the microsecond (EPOCHREALTIME: no fork to read it).
now_s() { echo "${EPOCHREALTIME}"; }

for name in "${scenarios[@]}"; do
  for ((run = 1; run <= runs; run++)); do
    # The core counts alternate within a round, so that a slow stretch of a shared machine
    # slows all of them alike rather than one.
    for cores in "${cores_counts[@]}"; do
      out_dir=out/${name}/cores${cores}
      mkdir -p "${out_dir}"
      cores_option=()
      if ((cores > 1)); then cores_option=(--cores "${cores}"); fi
      command=(/usr/bin/time -v -o "${out_dir}/time.txt"
        "${binary}" run "scenarios/${name}.textproto" --out "${out_dir}" --quiet
        "${cores_option[@]}")
      echo "bench: ${command[*]}   (run ${run} of ${runs})"
      start_s=$(now_s)
      "${command[@]}" >"${out_dir}/stdout.txt"
      end_s=$(now_s)

      wall_s=$(awk -v a="${start_s}" -v b="${end_s}" 'BEGIN { printf "%.4f", b - a }')
      rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "${out_dir}/time.txt")
      startup=$(sed -n 's/^ *start-up *\([0-9.]*\) ms.*/\1/p' "${out_dir}/stdout.txt")
      hops=$(json_number "${out_dir}/summary.json" packet_hops)
      run_s=$(json_number "${out_dir}/summary.json" wall_time_s)
      hops_rate=$(json_number "${out_dir}/summary.json" packet_hops_per_wall_s)
      key="${name} ${cores}"
      startup_ms[${key}]+="${startup:-0} "
      process_s[${key}]+="${wall_s} "
      outside_ms[${key}]+="$(awk -v w="${wall_s}" -v r="${run_s:-0}" 'BEGIN { printf "%.1f", (w - r) * 1e3 }') "
      rss_kib[${key}]+="${rss} "
      rate[${key}]+="${hops_rate:-0} "
      awk -v name="${name}" -v cores="${cores}" -v startup="${startup:-?}" -v wall="${wall_s}" \
        -v rss_kib="${rss}" -v hops="${hops:-?}" -v run_s="${run_s:-?}" -v rate="${hops_rate:-0}" \
        'BEGIN {
          printf "bench: %s, %s core(s): start-up %s ms, process %.3f s, peak RSS %.1f MiB, " \
                 "%s packet-hops in %s s of event loop", name, cores, startup, wall,
                 rss_kib / 1024, hops, run_s
          if (rate + 0 > 0) printf ", %.2f M packet-hops/s, %.1f ns per hop", rate / 1e6, 1e9 / rate
          printf "\n"
        }'
    done
    for cpu in "${pinned_cpus[@]}"; do
      out_dir=out/${name}/cpu${cpu}
      mkdir -p "${out_dir}"
      command=(taskset -c "${cpu}" "${binary}" run "scenarios/${name}.textproto" --out "${out_dir}"
        --quiet)
      echo "bench: ${command[*]}   (run ${run} of ${runs})"
      "${command[@]}" >"${out_dir}/stdout.txt"
      hops_rate=$(json_number "${out_dir}/summary.json" packet_hops_per_wall_s)
      pinned_rate["${name} ${cpu}"]+="${hops_rate:-0} "
      awk -v name="${name}" -v cpu="${cpu}" -v rate="${hops_rate:-0}" 'BEGIN {
          printf "bench: %s, 1 core pinned to CPU %s: %.2f M packet-hops/s\n", name, cpu, rate / 1e6
        }'
    done
  done
done

echo "bench: medians of ${runs} run(s) each"
printf 'bench: %-9s %5s %14s %11s %13s %15s %16s\n' scenario cores "start-up (ms)" \
  "process (s)" "outside (ms)" "peak RSS (MiB)" "M packet-hops/s"
declare -A median_rate median_process
for name in "${scenarios[@]}"; do
  for cores in "${cores_counts[@]}"; do
    key="${name} ${cores}"
    read -r -a values <<<"${rate[${key}]}"
    median_rate[${key}]=$(median "${values[@]}")
    best=$(largest "${values[@]}")
    read -r -a values <<<"${process_s[${key}]}"
    median_process[${key}]=$(median "${values[@]}")
    read -r -a values <<<"${startup_ms[${key}]}"
    startup=$(median "${values[@]}")
    read -r -a values <<<"${outside_ms[${key}]}"
    outside=$(median "${values[@]}")
    read -r -a values <<<"${rss_kib[${key}]}"
    rss=$(median "${values[@]}")
    awk -v name="${name}" -v cores="${cores}" -v startup="${startup}" \
      -v wall="${median_process[${key}]}" -v outside="${outside}" -v rss="${rss}" \
      -v rate="${median_rate[${key}]}" -v best="${best}" 'BEGIN {
        printf "bench: %-9s %5s %14.1f %11.3f %13.1f %15.1f %9.2f (best %.2f)\n", name, cores,
               startup, wall, outside, rss / 1024, rate / 1e6, best / 1e6
      }'
  done
done

# Each core count against the first: the speed-up, and whether the results stayed the same (a
# run's results must not depend on its core count).
first=${cores_counts[0]}
for name in "${scenarios[@]}"; do
  for cores in "${cores_counts[@]:1}"; do
    same=differ
    if cmp -s "out/${name}/cores${first}/flows.csv" "out/${name}/cores${cores}/flows.csv"; then
      same="identical"
    fi
    awk -v name="${name}" -v cores="${cores}" -v first="${first}" -v same="${same}" \
      -v rate="${median_rate[${name} ${cores}]}" -v rate1="${median_rate[${name} ${first}]}" \
      -v wall="${median_process[${name} ${cores}]}" \
      -v wall1="${median_process[${name} ${first}]}" 'BEGIN {
        if (rate1 + 0 > 0 && wall + 0 > 0)
          printf "bench: %s, %s cores against %s (medians): %.2fx the packet-hops/s, " \
                 "%.2fx faster whole process; flows.csv %s\n",
                 name, cores, first, rate / rate1, wall1 / wall, same
      }'
  done
done

# What the machine allows: N lanes run no faster than the N fastest CPUs, each alone, together.
if ((${#pinned_cpus[@]} > 0)); then
  for name in "${scenarios[@]}"; do
    per_cpu=()
    listed=""
    for cpu in "${pinned_cpus[@]}"; do
      read -r -a values <<<"${pinned_rate[${name} ${cpu}]}"
      m=$(median "${values[@]}")
      per_cpu+=("${m}")
      listed+=$(awk -v cpu="${cpu}" -v m="${m}" 'BEGIN { printf " CPU %s %.2f M,", cpu, m / 1e6 }')
    done
    echo "bench: ${name}, one core pinned to each CPU (medians):${listed%,} packet-hops/s"
    for cores in "${cores_counts[@]:1}"; do
      printf '%s\n' "${per_cpu[@]}" | sort -gr | awk -v n="${cores}" -v name="${name}" \
        -v rate="${median_rate[${name} ${cores}]}" '
        NR == 1 { fastest = $1 }
        NR <= n { sum += $1; used++ }
        END {
          if (used == n && fastest + 0 > 0)
            printf "bench: %s, %s cores: at most %.2f M packet-hops/s, the %s fastest CPUs alone " \
                   "added (%.2fx the fastest); got %.2f M, %.0f%% of that\n", name, n, sum / 1e6,
                   n, sum / fastest, rate / 1e6, 100 * rate / sum
        }'
    done
  done
fi

line_after=$(core_to_core_ns)
if [[ -n "${line_before}" && -n "${line_after}" ]]; then
  echo "bench: a cache line between two cores: ${line_before} ns before the runs," \
    "${line_after} ns after (BM_CacheLineBetweenCores; the multi-core figures follow it)"
fi

# The cost of a hop at the largest size against one at the smallest, at the first core count.
awk -v small="${median_rate[${scenarios[0]} ${first}]}" \
  -v large="${median_rate[${scenarios[-1]} ${first}]}" \
  -v names="${scenarios[-1]} vs ${scenarios[0]}" -v first="${first}" 'BEGIN {
    if (small + 0 > 0 && large + 0 > 0)
      printf "bench: cost per hop (medians, %s core(s)), %s: %.2fx\n", first, names, small / large
  }'

if ((micro == 0)); then
  exit 0
elif [[ -x "${bench_binary}" ]]; then
  echo "bench: ${bench_binary}"
  "${bench_binary}"
else
  echo "bench: ${bench_binary} not built (is libbenchmark-dev installed?)"
fi
