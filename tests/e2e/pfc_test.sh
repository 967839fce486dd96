#!/usr/bin/env bash
# Priority flow control across the emulator's real ports, both ways.
#  In:  a real host sends an 802.1Qbb pause (all classes, 0xffff quanta); the edge switch's port
#       towards that host holds its frames for the pause time, so an echo reply waits for it.
#  Out: the real host blasts RoCEv2 frames (DSCP 26: the lossless priority 3) at an emulated
#       host whose link emulated background RoCE traffic already fills; the edge switch's
#       ingress accounting for the real host's port crosses XOFF and a real pause frame comes
#       out of the emulator, captured in the host's namespace and dissected by tshark as PFC.
#   pfc_test.sh FABRIC_EMU RAW_FRAMES
source "$(dirname "$0")/lib.sh"
e2e_init pf "$1" tshark
readonly raw_frames=$2 rate_gbps=0.2

# Host 0 (real) and host 1 (emulated) share edge switch 0; host 2 (real) is on edge 1.
e2e_host 0 0
e2e_host 2 2
# Emulated hosts 3 and 4 send to host 1 at line rate all through the test: host 1's link is the
# congested lossless queue.
cat >"${E2E_DIR}/pfc.textproto" <<SCN
name: "e2e-pfc"
topology { fat_tree { k: 4 link_rate_gbps: ${rate_gbps} link_delay_ns: 10000 } }
# Static thresholds: 64 KB of one ingress port's frames in the buffer raise XOFF.
switch { pfc { xoff_bytes: 65536 xon_bytes: 57344 } }
traffic { flow_list {
  flow { src_host: 3 dst_host: 1 message_bytes: 100000000 }
  flow { src_host: 4 dst_host: 1 message_bytes: 100000000 }
} }
$(e2e_ports)
SCN
e2e_start "${E2E_DIR}/pfc.textproto"

# ---- PFC in.
ip netns exec "${NS[0]}" ping -n -q -c 3 -i 0.05 -W 2 "${IP[2]}" >/dev/null || e2e_fail "no ping before the pause"
t0_ns=$(date +%s%N)
ip netns exec "${NS[0]}" "${raw_frames}" "${IN[0]}" pfc_pause 1 || e2e_fail "raw_frames pfc_pause failed"
t1_ns=$(date +%s%N)
reply=$(ip netns exec "${NS[0]}" ping -n -D -c 1 -W 2 "${IP[2]}" | grep "bytes from") ||
  e2e_fail "no reply during the pause"
reply_ns=$(python3 -c "import re, sys; print(round(float(re.search(r'\[([\d.]+)\]', sys.argv[1]).group(1)) * 1e9))" "${reply}")
# 0xffff quanta of 512 bit times at the link rate (802.1Qbb); the echo reply reaches the paused
# port within a millisecond, long before the pause ends, and leaves when it does. The pause cannot
# start before it was sent (t0), so the reply never comes before t0 + pause; it comes at most
# 50 ms after t1 + pause: ping's start and a few scheduler slices of this busy machine.
pause_ns=$(python3 -c "print(round(65535 * 512 / (${rate_gbps} * 1e9) * 1e9))")
e2e_log "pause of ${pause_ns} ns: reply $(((reply_ns - t0_ns) / 1000)) us after the pause was sent"
((reply_ns >= t0_ns + pause_ns)) || e2e_fail "the reply came before the pause ended"
((reply_ns <= t1_ns + pause_ns + 50000000)) || e2e_fail "the reply came long after the pause ended"

# ---- PFC out.
# tshark dissects live, one line per frame: the EtherType, then for MAC control the opcode,
# priority 3's enable bit and its pause time. "Capturing on" can come before frames are really
# captured, so the capture counts as live only once it has seen a marker the host sends: an
# IEEE 802 experimental frame (EtherType 0x88B5), which the emulator drops as not IPv4.
frames="${E2E_DIR}/pfc_frames.txt"
ip netns exec "${NS[0]}" tshark -i "${IN[0]}" -l -f "ether proto 0x8808 or ether proto 0x88b5" \
  -a duration:8 -T fields -e eth.type -e macc.opcode -e macc.cbfc.enbv.c3 \
  -e macc.cbfc.pause_time.c3 >"${frames}" 2>"${E2E_DIR}/tshark.log" &
tshark_pid=$!
live=0
for ((i = 0; i < 50 && !live; ++i)); do
  ip netns exec "${NS[0]}" "${raw_frames}" "${IN[0]}" not_ip 1 || e2e_fail "raw_frames not_ip failed"
  for ((j = 0; j < 10; ++j)); do
    if grep -q "^0x88b5" "${frames}"; then
      live=1
      break
    fi
    sleep 0.01
  done
done
((live)) || e2e_fail "tshark never saw the marker frame: $(cat "${E2E_DIR}/tshark.log")"
# 4000 frames of 1,096 bytes: 35 ms of the 200 Mb/s link, while background holds its share.
ip netns exec "${NS[0]}" "${raw_frames}" "${IN[0]}" roce 4000 "$(e2e_host_ip 1)" ||
  e2e_fail "raw_frames roce failed"
wait "${tshark_pid}" || e2e_fail "tshark failed: $(cat "${E2E_DIR}/tshark.log")"
e2e_stop

# PFC (opcode 0x0101) with priority 3 enabled: its pause time per line.
pfc=$(awk -F'\t' '$1 == "0x8808" && $2 == "0x0101" && ($3 == "1" || $3 == "True") { print $4 }' "${frames}")
captured=$(grep -c . <<<"${pfc}" || true)
sent=$(e2e_json 'j["ports"][0]["tx_pause_frames"]')
e2e_log "pause frames: ${captured} captured with priority 3 enabled, ${sent} sent by the emulator"
((captured >= 1)) || e2e_fail "no PFC frame for priority 3 reached the sender; $(cat "${frames}"); $(cat "${SUMMARY}")"
((captured <= sent)) || e2e_fail "captured ${captured} pause frames but the emulator sent ${sent}"
# XOFF frames carry a non-zero pause time (XON frames carry 0): at least one must stop the sender.
awk '$1 > 0 { found = 1 } END { exit !found }' <<<"${pfc}" || e2e_fail "no XOFF among the frames: ${pfc}"
rx_pause=$(e2e_json 'j["ports"][0]["pause_frames_rx"]')
((rx_pause == 1)) || e2e_fail "${rx_pause} pause frames counted from the host, sent 1"
e2e_check_no_leak
e2e_log "PASS"
