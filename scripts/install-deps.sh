#!/usr/bin/env bash
# Installs the Debian 12 packages fabric-emu needs to build, test and benchmark.
# Asks apt only when a package is missing, so a second run is fast and works offline.
# docs/dependencies.md says why each package is here.
set -euo pipefail

packages=(
  # Toolchain.
  build-essential g++ cmake pkg-config ccache
  # Libraries the code links against.
  libdpdk-dev dpdk libprotobuf-dev protobuf-compiler libboost-dev libibverbs-dev nlohmann-json3-dev
  # Tests and benchmarks.
  libgtest-dev libgmock-dev googletest libbenchmark-dev time
  # Fuzzing (scripts/fuzz.sh): clang with libFuzzer and the sanitizer runtimes.
  clang libclang-rt-14-dev
  # Real peers and packet dissection for end-to-end tests.
  iproute2 iputils-ping iperf3 ethtool tshark python3
  # `fabric-emu topo --dot` output is checked by rendering it.
  graphviz
  # The HTTP API's tests: curl as the client, promtool (in prometheus) checks /metrics.
  curl prometheus
  # report.html is checked by rendering it in headless Chromium.
  chromium
)

# dpkg-query prints nothing for a name it has never heard of, so absence of "ii" means missing.
installed=$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${packages[@]}" 2>/dev/null |
  awk '$2 == "ii" { print $1 }' || true)
missing=()
for package in "${packages[@]}"; do
  grep -qxF -- "${package}" <<<"${installed}" || missing+=("${package}")
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
echo "install-deps: missing ${missing[*]}"

if ((EUID == 0)); then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "install-deps: not root and no sudo; as root, run:" >&2
  echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi

log=$(mktemp)
trap 'rm -f "${log}"' EXIT
# Runs "$@" as root with apt's output in the log; shows the log only if the step fails.
run_quiet() {
  if ! "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive "$@" >"${log}" 2>&1; then
    cat "${log}" >&2
    echo "install-deps: failed: $*" >&2
    exit 1
  fi
}

# tshark's package asks whether non-root users may capture; answer no so nothing prompts.
echo "install-deps: preseeding debconf (wireshark-common/install-setuid=false)"
echo "wireshark-common wireshark-common/install-setuid boolean false" |
  "${as_root[@]}" debconf-set-selections
echo "install-deps: apt-get update"
run_quiet apt-get update -qq
echo "install-deps: apt-get install (a few minutes on a fresh machine)"
run_quiet apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "install-deps: done"
