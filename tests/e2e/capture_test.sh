#!/usr/bin/env bash
# Capture of real hosts' ports at the cable, both ways. Host 0's port is captured with the
# default direction (both), host 15's receiving only. Pings and a short TCP transfer cross the
# fabric; tshark then reads the file: on host 0's interface, the outbound frames (what the server
# sent) are exactly the frames the emulator received from it, and the inbound ones exactly what it
# handed the device for it; host 15's interface holds only inbound frames, as many as it was
# handed.
#   capture_test.sh FABRIC_EMU
source "$(dirname "$0")/lib.sh"
e2e_init ca "$1" iperf3 taskset tshark

e2e_host 0 0
e2e_host 1 15
cat >"${E2E_DIR}/capture.textproto" <<SCN
name: "e2e-capture"
topology { fat_tree { k: 4 link_rate_gbps: 0.2 link_delay_ns: 10000 } }
capture { port { host: 0 } port { host: 15 direction: RX } file: "cable.pcapng" }
$(e2e_ports)
SCN
e2e_start "${E2E_DIR}/capture.textproto"
ip netns exec "${NS[0]}" ping -n -q -c 20 -i 0.01 -W 2 "${IP[1]}" >/dev/null || e2e_fail "ping failed"
e2e_iperf_server 1
e2e_peer 0 iperf3 -c "${IP[1]}" -n 2M -J >"${E2E_DIR}/iperf3.json" || e2e_fail "iperf3 failed"
e2e_stop

# Direction as tshark reads pcapng's epb_flags: 1 inbound (to the port), 2 outbound (from it).
counts=$(tshark -r "${E2E_DIR}/out/cable.pcapng" -T fields -e frame.interface_id \
  -e frame.packet_flags_direction 2>"${E2E_DIR}/tshark.log" | sort | uniq -c)
count() { awk -v i="$1" -v d="$2" '$2 == i && ($3 + 0 == d || $3 == sprintf("0x%08x", d)) { n += $1 } END { print n + 0 }' <<<"${counts}"; }
e2e_log "tshark: $(tr '\n' ';' <<<"${counts}")"
for idx in 0 1; do
  rx[idx]=$(e2e_json "j['ports'][${idx}]['device_rx_packets']")
  tx[idx]=$(e2e_json "j['ports'][${idx}]['device_tx_packets'] + j['ports'][${idx}]['device_tx_dropped']")
  e2e_log "port ${idx}: device received ${rx[idx]}, handed ${tx[idx]}; captured out $(count "${idx}" 2), in $(count "${idx}" 1)"
done
# At least the 20 echo requests and 2 MiB in segments of at most 64 KiB (the kernel may hand the
# veth segments larger than its MTU): 20 + 32 frames. How many more depends on segmentation.
((rx[0] >= 52)) || e2e_fail "only ${rx[0]} frames from host 0: the transfer did not run"
(($(count 0 2) == rx[0])) || e2e_fail "host 0: $(count 0 2) outbound frames captured, ${rx[0]} received from it"
(($(count 0 1) == tx[0])) || e2e_fail "host 0: $(count 0 1) inbound frames captured, ${tx[0]} handed to it"
(($(count 1 1) == tx[1])) || e2e_fail "host 15: $(count 1 1) inbound frames captured, ${tx[1]} handed to it"
(($(count 1 2) == 0)) || e2e_fail "host 15's capture holds $(count 1 2) outbound frames, asked for received only"
e2e_check_no_leak
e2e_log "PASS"
