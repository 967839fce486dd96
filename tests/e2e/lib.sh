# Shared set-up of the end-to-end tests. Each test builds its own network namespaces, one per
# real host, joined to the emulator by a veth pair whose outer end the emulator attaches with
# net_af_packet; the inner end carries the host's fabric address (198.18.0.0/15, RFC 2544's
# benchmarking range, which no interface of the machine uses). Everything a test creates is
# removed on exit, whatever happens, and no frame leaves the test's own veths.
#
# Source it, then: e2e_init TAG; e2e_host IDX HOST...; e2e_scenario ...; e2e_start; ...; e2e_stop.
set -euo pipefail

readonly E2E_SKIP=77  # ctest SKIP_RETURN_CODE

e2e_log() { echo "[$(date +%T.%3N)] $*"; }
e2e_fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# Host index -> its address 198.18.0.0 + 1 + host.
e2e_host_ip() {
  local n=$((0xC6120000 + 1 + $1))
  echo "$((n >> 24)).$(((n >> 16) & 255)).$(((n >> 8) & 255)).$((n & 255))"
}

e2e_cleanup() {
  local rc=$?
  if [[ -n "${E2E_EMU_PID:-}" ]] && kill -0 "${E2E_EMU_PID}" 2>/dev/null; then
    kill -KILL "${E2E_EMU_PID}" 2>/dev/null || true
    wait "${E2E_EMU_PID}" 2>/dev/null || true
  fi
  for ns in "${E2E_NS[@]}"; do ip netns pids "${ns}" 2>/dev/null | xargs -r kill -KILL || true; done
  for ns in "${E2E_NS[@]}"; do ip netns del "${ns}" 2>/dev/null || true; done
  for link in "${E2E_LINKS[@]}"; do ip link del "${link}" 2>/dev/null || true; done
  if ((rc != 0 && rc != E2E_SKIP)) && [[ -f "${E2E_DIR}/emulator.log" ]]; then
    echo "---- emulator log" >&2
    cat "${E2E_DIR}/emulator.log" >&2
  fi
  rm -rf "${E2E_DIR}"
  exit "${rc}"
}

# e2e_init TAG FABRIC_EMU: checks what the test needs, skips where namespaces are unavailable.
e2e_init() {
  E2E_FABRIC_EMU=$2
  # Interface names have at most 15 characters: "fe" + 2-letter tag + pid + "o"/"i" + index.
  E2E_TAG="fe${1:0:2}$(($$ % 100000))"
  E2E_NS=()
  E2E_LINKS=()
  NS=() IN=() OUT=() IP=() HOST=()
  E2E_EMU_PID=
  E2E_DIR=$(mktemp -d)
  trap e2e_cleanup EXIT
  if ((EUID != 0)); then
    echo "SKIP: needs root for network namespaces and raw sockets"
    exit "${E2E_SKIP}"
  fi
  if ! ip netns add "${E2E_TAG}p" 2>/dev/null; then
    echo "SKIP: network namespaces are unavailable here (ip netns add failed)"
    exit "${E2E_SKIP}"
  fi
  ip netns del "${E2E_TAG}p"
  local tool
  for tool in ip ping ethtool python3 "${@:3}"; do
    command -v "${tool}" >/dev/null || e2e_fail "${tool} is missing (scripts/install-deps.sh installs it)"
  done
}

# e2e_host IDX HOST: namespace IDX becomes fabric host HOST. Sets NS[IDX], IN[IDX], OUT[IDX],
# IP[IDX].
e2e_host() {
  local idx=$1 host=$2
  local ns="${E2E_TAG}n${idx}" out="${E2E_TAG}o${idx}" in="${E2E_TAG}i${idx}"
  ip netns add "${ns}"
  E2E_NS+=("${ns}")
  ip link add "${out}" type veth peer name "${in}"
  E2E_LINKS+=("${out}")
  ip link set "${in}" netns "${ns}"
  # No IPv6 on either end: the only frames on the wire are the ones the test causes, so the
  # emulator's per-reason counters can be checked exactly.
  sysctl -qw "net.ipv6.conf.${out}.disable_ipv6=1"
  ip netns exec "${ns}" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
  ip link set "${out}" up
  ip netns exec "${ns}" ip link set lo up
  ip netns exec "${ns}" ip addr add "$(e2e_host_ip "${host}")/15" dev "${in}"
  # Checksums are computed in software: with offload a veth hands frames on with partial
  # checksums, which a real receiver behind DPDK would drop.
  ip netns exec "${ns}" ethtool -K "${in}" tx off >/dev/null
  ip netns exec "${ns}" ip link set "${in}" up
  NS[idx]=${ns}
  IN[idx]=${in}
  OUT[idx]=${out}
  IP[idx]=$(e2e_host_ip "${host}")
  HOST[idx]=${host}
}

# e2e_ports: the realtime section attaching every host made so far.
e2e_ports() {
  local idx
  echo "realtime {"
  for idx in "${!NS[@]}"; do
    echo "  port { device_args: \"net_af_packet${idx},iface=${OUT[idx]}\" host: ${HOST[idx]} }"
  done
  echo "}"
}

# e2e_peer IDX CMD...: runs CMD in host IDX's namespace on every CPU but the emulator's lcore 0,
# so that a real peer and the emulator's busy-polling loop never take turns on one core (one turn
# is milliseconds of lateness, and TCP reads it as a longer path). CMD gets 60 s.
e2e_peer() {
  local idx=$1 cpus=0 n
  n=$(nproc)
  ((n > 1)) && cpus="1-$((n - 1))"
  timeout 60 ip netns exec "${NS[idx]}" taskset -c "${cpus}" "${@:2}"
}

# e2e_iperf_server IDX: a one-shot iperf3 server in host IDX's namespace, returned from when it
# listens (its log says nothing until a client comes).
e2e_iperf_server() {
  e2e_peer "$1" iperf3 -s -1 -D -B "${IP[$1]}" --logfile "${E2E_DIR}/iperf3-server.log"
  local i
  for ((i = 0; i < 100; ++i)); do
    ip netns exec "${NS[$1]}" ss -ltn | grep -q ":5201" && return 0
    sleep 0.1
  done
  e2e_fail "iperf3 did not listen within 10 s"
}

# e2e_start SCENARIO_FILE [EXTRA ARGS]: starts the emulator and waits until its loop runs.
e2e_start() {
  "${E2E_FABRIC_EMU}" serve "$1" --out "${E2E_DIR}/out" "${@:2}" >"${E2E_DIR}/emulator.log" 2>&1 &
  E2E_EMU_PID=$!
  local i
  for ((i = 0; i < 300; ++i)); do
    grep -qs "serve: running" "${E2E_DIR}/emulator.log" && return 0
    kill -0 "${E2E_EMU_PID}" 2>/dev/null || e2e_fail "the emulator exited at start"
    sleep 0.1
  done
  e2e_fail "the emulator did not start within 30 s"
}

# e2e_stop: Ctrl-C, as a user stops it; it must exit 0 within 20 s having written summary.json.
e2e_stop() {
  kill -INT "${E2E_EMU_PID}"
  local i
  for ((i = 0; i < 200; ++i)); do
    kill -0 "${E2E_EMU_PID}" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "${E2E_EMU_PID}" 2>/dev/null && e2e_fail "the emulator ignored SIGINT for 20 s"
  local rc=0
  wait "${E2E_EMU_PID}" || rc=$?
  E2E_EMU_PID=
  ((rc == 0)) || e2e_fail "the emulator exited with ${rc}"
  grep -q "stopped by signal" "${E2E_DIR}/emulator.log" || e2e_fail "no clean stop in the log"
  SUMMARY="${E2E_DIR}/out/summary.json"
  [[ -f "${SUMMARY}" ]] || e2e_fail "no summary.json"
}

# e2e_json EXPR: evaluates a Python expression over the summary, bound to j.
e2e_json() {
  python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' \
    "${SUMMARY}" "$1"
}

# e2e_check_no_leak: every mbuf went back to its pool.
e2e_check_no_leak() {
  local in_use
  in_use=$(e2e_json 'j["mbufs_in_use_at_exit"]')
  ((in_use == 0)) || e2e_fail "${in_use} mbufs not back in their pools at exit"
  e2e_log "no leak: mbufs in use at exit = 0 ($(e2e_json 'j["mbufs_freed_at_teardown"]') freed at teardown)"
}
