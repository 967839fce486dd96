#!/usr/bin/env bash
# The documented EAL arguments on a machine without hugepages: realtime.eal_args "-l 0-1" adds to
# serve's defaults instead of replacing them, so serve starts without hugepages, prints exactly
# what the EAL gets, and the EAL's own debug log shows no PCI device probed (no port names one;
# this machine's NIC must stay with its kernel driver).
#   eal_args_test.sh FABRIC_EMU
source "$(dirname "$0")/lib.sh"
e2e_init ea "$1"
(($(nproc) >= 2)) || { echo "SKIP: -l 0-1 needs two CPUs"; exit "${E2E_SKIP}"; }

e2e_host 0 0
device="net_af_packet0,iface=${OUT[0]}"
cat >"${E2E_DIR}/eal.textproto" <<SCN
name: "e2e-eal-args"
topology { fat_tree { k: 4 link_rate_gbps: 1 link_delay_ns: 1000 } }
realtime {
  eal_args: "-l 0-1 --log-level lib.eal:debug"
  port { device_args: "${device}" host: 0 }
}
SCN
e2e_start "${E2E_DIR}/eal.textproto" --quiet
e2e_stop
log="${E2E_DIR}/emulator.log"

want="serve: EAL arguments: --no-huge -m 1024 --no-shconf --no-telemetry -l 0-1"
# The port's device as serve opens it: af_packet's ring at serve's default size.
want+=" --log-level lib.eal:debug --no-pci --vdev ${device},framecnt=4096"
grep -qxF "${want}" "${log}" || e2e_fail "serve did not print the merged arguments: ${want}"
grep -q "I/O on lcore 1" "${log}" || e2e_fail "the user's -l 0-1 did not give two lcores"
# The check below can only fail if the EAL's debug log is on.
grep -q "lib.eal log level changed from info to debug" "${log}" || e2e_fail "no EAL debug log"
if grep -E "PCI device|Probe PCI driver" "${log}"; then
  e2e_fail "the EAL probed a PCI device that no port names"
fi
e2e_log "merged EAL arguments used; no PCI device probed"
