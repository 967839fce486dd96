#!/usr/bin/env bash
# ECN through the emulated fabric: TCP with ECN between two real hosts crosses switch queues that
# emulated background traffic keeps congested; the switches' WRED marks CE on the real packets,
# the receiving kernel counts them, and its count equals the emulator's count of CE frames it
# delivered to that host.
#   ecn_test.sh FABRIC_EMU
source "$(dirname "$0")/lib.sh"
e2e_init ec "$1" iperf3 nstat

# Host 0 sends to host 15 (another pod). Its neighbour on edge switch 0, emulated host 1, sends
# eight messages at once, to hosts in the other pods, with DSCP 0 (TCP's class): its NIC serves
# them round-robin at its 200 Mb/s line rate, and their UDP source ports (one per queue pair)
# spread them over both uplinks of edge 0. Whichever uplink the TCP flow hashes to, it shares it
# with about 100 Mb/s of background: the queue there builds, WRED marks, TCP backs off on the
# marks, and nothing else in the fabric is congested (each destination receives 25 Mb/s).
e2e_host 0 0
e2e_host 1 15
flows=""
for dst in 4 5 8 9 10 12 13 14; do
  flows+="  flow { src_host: 1 dst_host: ${dst} message_bytes: 100000000 }"$'\n'
done
# To a real host: serve leaves it out (the server's own stack sends what it sends).
flows+="  flow { src_host: 2 dst_host: 15 message_bytes: 1000 }"$'\n'
cat >"${E2E_DIR}/ecn.textproto" <<SCN
name: "e2e-ecn"
topology { fat_tree { k: 4 link_rate_gbps: 0.2 link_delay_ns: 10000 } }
# Marking from 5 KB of queue, every packet above 100 KB.
switch { queue { priority: 0 wred { kmin_bytes: 5000 kmax_bytes: 100000 pmax: 0.2 } } }
traffic { dscp: 0 flow_list {
${flows}} }
$(e2e_ports)
SCN
for idx in 0 1; do ip netns exec "${NS[idx]}" sysctl -qw net.ipv4.tcp_ecn=1; done
e2e_start "${E2E_DIR}/ecn.textproto"

e2e_iperf_server 1
if ! e2e_peer 0 iperf3 -c "${IP[1]}" -t 4 -J >"${E2E_DIR}/iperf3.json"; then
  e2e_stop
  e2e_fail "iperf3 failed: $(head -c 2000 "${E2E_DIR}/iperf3.json"); fabric drops: $(e2e_json 'j["fabric_drops"]')"
fi
e2e_stop

# Every scenario message is either emulated or left out: 8 and 1.
emulated=$(e2e_json 'j["messages"]')
left_out=$(e2e_json 'j["messages_left_out"]')
((emulated == 8 && left_out == 1)) ||
  e2e_fail "${emulated} messages emulated and ${left_out} left out, not 8 and 1"

# RFC 3168 counters of the receiving namespace's IP layer: every IPv4 packet received with CE.
kernel_ce=$(ip netns exec "${NS[1]}" nstat -az IpExtInCEPkts | awk '$1 == "IpExtInCEPkts" { print $2 }')
emulator_ce=$(e2e_json 'j["ports"][1]["tx_ce_frames"]')
tx_dropped=$(e2e_json 'j["ports"][1]["device_tx_dropped"]')
e2e_log "CE: receiver kernel counted ${kernel_ce}, emulator delivered ${emulator_ce} (device tx drops ${tx_dropped})"
((kernel_ce > 0)) || e2e_fail "the receiver saw no CE mark"
# Every frame the emulator hands the device reaches the kernel over the veth; only a full tx ring
# (counted) could lose one.
((kernel_ce <= emulator_ce && kernel_ce + tx_dropped >= emulator_ce)) ||
  e2e_fail "kernel CE count ${kernel_ce} disagrees with the emulator's ${emulator_ce}"
e2e_check_no_leak
e2e_log "PASS"
