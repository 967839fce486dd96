#!/usr/bin/env bash
# Ping between two real hosts across the emulated k = 4 fat-tree, in different pods (6 links each
# way). The emulator must never be early: every RTT is at least the emulated path delay, the sum
# of propagation and store-and-forward serialisation on the 12 links of the round trip. And it
# must add little else: the smallest RTT stays within a bound made of the kernel crossings and the
# loop's measured lateness. The least RTT serve prints at start for the pair is that same path.
#   ping_test.sh FABRIC_EMU [two-lcores]
# two-lcores: I/O on a second lcore, and the ports probed by the emulator after EAL start (the
# EAL arguments name no device).
source "$(dirname "$0")/lib.sh"
e2e_init pi "$1"
mode=${2:-one-lcore}

readonly delay_ns=100000 rate_gbps=1 count=50
e2e_host 0 0
e2e_host 1 15
cat >"${E2E_DIR}/ping.textproto" <<SCN
name: "e2e-ping"
topology { fat_tree { k: 4 link_rate_gbps: ${rate_gbps} link_delay_ns: ${delay_ns} } }
$(e2e_ports)
run { progress: true }
SCN
if [[ "${mode}" == two-lcores ]]; then
  (($(nproc) >= 2)) || { echo "SKIP: two lcores need two CPUs"; exit "${E2E_SKIP}"; }
  e2e_start "${E2E_DIR}/ping.textproto" --eal "-l 0-1 --no-huge -m 1024 --no-shconf --no-pci"
  grep -q "I/O on lcore 1" "${E2E_DIR}/emulator.log" || e2e_fail "not in two-lcore mode"
else
  e2e_start "${E2E_DIR}/ping.textproto"
fi

out=$(ip netns exec "${NS[0]}" ping -n -q -c "${count}" -i 0.02 -W 2 "${IP[1]}") ||
  e2e_fail "ping failed: ${out}"
echo "${out}"
e2e_stop

# ICMP echo with 56 data bytes: 14 Ethernet + 20 IPv4 + 8 ICMP + 56 = 98 bytes, + 4 FCS = 102,
# + 8 preamble/SFD + 12 inter-frame gap = 122 bytes of wire time per link (IEEE 802.3).
# Host 0 (pod 0) to host 15 (pod 3): host-edge-agg-core-agg-edge-host, 6 links; reply the same.
read -r received min_us <<<"$(python3 - "${out}" <<'PY'
import re, sys
out = sys.argv[1]
received = int(re.search(r"(\d+) received", out).group(1))
rtt_min_ms = float(re.search(r"= ([\d.]+)/", out).group(1))
print(received, round(rtt_min_ms * 1000))
PY
)"
((received == count)) || e2e_fail "${received} of ${count} replies"
path_ns=$(python3 -c "print(12 * (${delay_ns} + 122 * 8 / ${rate_gbps}))")
p50_ns=$(e2e_json 'j["lateness"]["p50_ns"]')
# Tolerance: the round trip crosses the kernel four times (veth and the af_packet ring, into and
# out of the emulator on each side), about 19 us each on an idle machine of this kind (74 us per
# RTT measured with the same path); 300 us allows four times that for a loaded CI machine. On top,
# each of the 12 link arrivals may run as late as the loop typically runs late (its p50 lateness).
bound_ns=$(python3 -c "print(${path_ns} + 300000 + 12 * ${p50_ns})")
e2e_log "min RTT ${min_us} us; emulated path ${path_ns} ns; bound ${bound_ns} ns; lateness p50 ${p50_ns} ns"
# ping prints microseconds: the minimum may read up to 0.5 us below the true value.
python3 -c "import sys; sys.exit(0 if ${min_us} * 1000 + 500 >= ${path_ns} else 1)" ||
  e2e_fail "RTT ${min_us} us is shorter than the emulated path ${path_ns} ns: the emulator was early"
python3 -c "import sys; sys.exit(0 if ${min_us} * 1000 <= ${bound_ns} else 1)" ||
  e2e_fail "RTT ${min_us} us exceeds the bound ${bound_ns} ns"
# What serve printed at start for this pair: the same closed form, computed by the emulator from
# the route's path (3 decimals of a microsecond: within 1 ns once rounded), and a bound the
# measured minimum never goes below.
printed_us=$(sed -n 's/^serve: least ping RTT host 0 <-> host 15: \([0-9.]*\) us.*/\1/p' "${E2E_DIR}/emulator.log")
[[ -n "${printed_us}" ]] || e2e_fail "serve printed no least RTT for hosts 0 and 15"
e2e_log "serve printed a least RTT of ${printed_us} us"
python3 -c "import sys; sys.exit(0 if abs(${printed_us} * 1000 - ${path_ns}) <= 1 else 1)" ||
  e2e_fail "printed least RTT ${printed_us} us is not the path's ${path_ns} ns"
python3 -c "import sys; sys.exit(0 if ${min_us} * 1000 + 500 >= ${printed_us} * 1000 else 1)" ||
  e2e_fail "measured min RTT ${min_us} us is below the printed least RTT ${printed_us} us"
# Where each lcore's time went: one entry per lcore, the fabric's first; its passes are the loop's
# iterations; the stages are disjoint stretches of the run, so their shares add up to at most 1.
lcores=$(e2e_json 'len(j["lcores"])')
expected_lcores=1; [[ "${mode}" == two-lcores ]] && expected_lcores=2
((lcores == expected_lcores)) || e2e_fail "${lcores} lcores reported"
e2e_json '[(l["role"], l["pass_gap"], l["time_share"]) for l in j["lcores"]]'
[[ $(e2e_json 'j["lcores"][0]["passes"] == j["loop_iterations"]') == True ]] ||
  e2e_fail "the fabric lcore's passes are not the loop's iterations"
[[ $(e2e_json 'all(sum(l["time_share"].values()) <= 1 for l in j["lcores"])') == True ]] ||
  e2e_fail "an lcore's stages add up to more than the run"
grep -q "max pass gap" "${E2E_DIR}/emulator.log" || e2e_fail "the progress line has no pass gap"
forwarded=$(e2e_json 'j["ports"][0]["rx_forwarded"]')
((forwarded >= count)) || e2e_fail "only ${forwarded} frames from host 0 entered the fabric"
e2e_check_no_leak
e2e_log "PASS"
