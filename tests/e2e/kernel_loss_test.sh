#!/usr/bin/env bash
# No silent loss on the way into the emulator. TCP runs 10 s from host 0 to host 15 across a k = 4
# fat-tree of 1 Gb/s links (the sender's host link is the bottleneck).
#   defaults:  the ports with serve's default device arguments. iperf3's window (-w 850K: about
#              600 segments in flight) exceeds net_af_packet's own default ring of 512 frames,
#              which lost thousands of frames in the kernel here, but fits serve's 4096-frame
#              default and the emulated uplink's 1 MiB queue, so neither the kernel nor the
#              emulator has cause to drop a frame: retransmissions stay at or below 0.1% of the
#              segments (what remains is TCP's tail-loss probes when the loop stalls), and no
#              frame is lost on the way in.
#   tiny-ring: framecnt=16 forced: the kernel drops frames, and the summary says how many. Every
#              frame that reached the emulator's side of the veth either entered the emulator or
#              was one of those drops.
#   kernel_loss_test.sh FABRIC_EMU defaults|tiny-ring
source "$(dirname "$0")/lib.sh"
e2e_init kl "$1" iperf3 taskset
mode=$2

e2e_host 0 0
e2e_host 1 15
ports=$(e2e_ports)
seconds=10
if [[ "${mode}" == tiny-ring ]]; then
  ports=${ports//iface=${OUT[0]}/iface=${OUT[0]},framecnt=16}
  seconds=3
fi
cat >"${E2E_DIR}/kl.textproto" <<SCN
name: "e2e-kernel-loss"
topology { fat_tree { k: 4 link_rate_gbps: 1 link_delay_ns: 10000 } }
run { progress: true }
${ports}
SCN
e2e_start "${E2E_DIR}/kl.textproto"
e2e_iperf_server 1
e2e_peer 0 iperf3 -c "${IP[1]}" -t "${seconds}" -w 850K -J >"${E2E_DIR}/iperf3.json" ||
  e2e_fail "iperf3 failed: $(head -c 2000 "${E2E_DIR}/iperf3.json")"
if [[ "${mode}" == tiny-ring ]]; then
  # TCP goes on retransmitting what the tiny ring lost (its connections' ends) after iperf3 is
  # done: the host's link goes down, so that no frame arrives any more, and the count of what
  # arrived is final. The loop then takes what is left in the ring at its next poll; two progress
  # lines later (the first may have begun before) it has.
  ip netns exec "${NS[0]}" ip link set "${IN[0]}" down
  arrived=$(ip -s -j link show "${OUT[0]}" | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["stats64"]["rx"]["packets"])')
  lines=$(grep -c "^serve: [0-9.]* s," "${E2E_DIR}/emulator.log" || true)
  for ((i = 0; i < 100; ++i)); do
    (($(grep -c "^serve: [0-9.]* s," "${E2E_DIR}/emulator.log" || true) >= lines + 2)) && break
    sleep 0.1
  done
fi
e2e_stop

read -r segments retransmits <<<"$(python3 - "${E2E_DIR}/iperf3.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
sent = j["end"]["sum_sent"]
print(sent["bytes"] // j["start"]["tcp_mss_default"], sent["retransmits"])
PY
)"
lost=$(e2e_json 'j["ports"][0]["rx_lost"]["total"]')
kernel=$(e2e_json 'j["ports"][0]["rx_lost"]["kernel_ring"]')
e2e_log "${segments} segments, ${retransmits} retransmitted; lost on the way in: ${lost} (kernel ring ${kernel})"
grep -q "lost on the way in" "${E2E_DIR}/emulator.log" || e2e_fail "the progress line does not report loss on the way in"
if [[ "${mode}" == defaults ]]; then
  ((lost == 0)) || e2e_fail "${lost} frames lost before the emulator with the default device arguments"
  ((retransmits * 1000 <= segments)) || e2e_fail "${retransmits} retransmissions of ${segments} segments exceed 0.1%"
else
  ((kernel > 0)) || e2e_fail "a 16-frame ring under TCP lost nothing, or its loss went unreported"
  # The veth end the emulator attaches counts every frame the host sent through it; the
  # emulator's device received them all but the kernel's drops.
  received=$(e2e_json 'j["ports"][0]["device_rx_packets"]')
  e2e_log "veth ${OUT[0]} received ${arrived} frames; emulator received ${received}, kernel dropped ${kernel}"
  ((arrived == received + kernel)) || e2e_fail "${arrived} frames arrived but ${received} + ${kernel} are accounted for"
fi
e2e_check_no_leak
e2e_log "PASS"
