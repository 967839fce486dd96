#!/usr/bin/env bash
# The lab guide's ECN recipe (docs/lab-guide.md, section 9) as a test: an incast of real hosts.
# Hosts 0 and 1 send TCP with ECN to host 2, all three below edge switch 0 of a k = 6 fat-tree of
# 200 Mb/s links: together they exceed host 2's link, so the queue builds at edge0's port towards
# host 2, the only queue where WRED marks (the ACKs going back are neither ECN-capable nor
# queued). Every mark is on a frame delivered to host 2 once: the receiving kernel's CE count
# equals that queue's ecn_marks in serve's summary, the sum of ecn_marks over every queue, and the
# CE frames the emulator handed host 2 (less any its device refused, counted). And serve's
# switch_queues entries carry the same fields as a software run's.
#   ecn_recipe_test.sh FABRIC_EMU
source "$(dirname "$0")/lib.sh"
e2e_init er "$1" iperf3 nstat taskset

e2e_host 0 0
e2e_host 1 1
e2e_host 2 2
wred='switch { queue { priority: 0 wred { kmin_bytes: 5000 kmax_bytes: 100000 pmax: 0.2 } } }'
topology='topology { fat_tree { k: 6 link_rate_gbps: 0.2 link_delay_ns: 10000 } }'
cat >"${E2E_DIR}/ecn.textproto" <<SCN
name: "e2e-ecn-incast"
${topology}
${wred}
$(e2e_ports)
SCN
for idx in 0 1 2; do ip netns exec "${NS[idx]}" sysctl -qw net.ipv4.tcp_ecn=1; done
e2e_start "${E2E_DIR}/ecn.textproto"

for port in 5201 5202; do
  e2e_peer 2 iperf3 -s -1 -D -B "${IP[2]}" -p "${port}" --logfile "${E2E_DIR}/server-${port}.log"
done
for ((i = 0; i < 100; ++i)); do
  (($(ip netns exec "${NS[2]}" ss -ltn | grep -c ":520[12]") == 2)) && break
  sleep 0.1
done
ip netns exec "${NS[2]}" nstat -n  # a fresh baseline: only this run's packets count below
e2e_peer 0 iperf3 -c "${IP[2]}" -p 5201 -t 4 -J >"${E2E_DIR}/c0.json" &
c0=$!
e2e_peer 1 iperf3 -c "${IP[2]}" -p 5202 -t 4 -J >"${E2E_DIR}/c1.json" &
c1=$!
wait "${c0}" || e2e_fail "iperf3 from host 0 failed: $(head -c 2000 "${E2E_DIR}/c0.json")"
wait "${c1}" || e2e_fail "iperf3 from host 1 failed: $(head -c 2000 "${E2E_DIR}/c1.json")"
kernel_ce=$(ip netns exec "${NS[2]}" nstat IpExtInCEPkts | awk '$1 == "IpExtInCEPkts" { print $2 }')
kernel_ce=${kernel_ce:-0}
e2e_stop

edge_marks=$(e2e_json 'sum(q["ecn_marks"] for q in j["switch_queues"] if q["switch"] == "edge0" and q["port"] == 2 and q["queue"] == 0)')
all_marks=$(e2e_json 'sum(q["ecn_marks"] for q in j["switch_queues"])')
delivered_ce=$(e2e_json 'j["ports"][2]["tx_ce_frames"]')
tx_dropped=$(e2e_json 'j["ports"][2]["device_tx_dropped"]')
e2e_log "CE: host 2's kernel counted ${kernel_ce}; edge0 port 2 marked ${edge_marks}, all queues ${all_marks}; delivered CE ${delivered_ce}, device tx drops ${tx_dropped}"
((kernel_ce > 0)) || e2e_fail "the receiver saw no CE mark"
((all_marks == edge_marks)) || e2e_fail "${all_marks} marks in all, ${edge_marks} at edge0 port 2: another queue marked"
((delivered_ce == edge_marks)) || e2e_fail "${delivered_ce} CE frames delivered, ${edge_marks} marked"
# Every frame the emulator hands the device reaches the kernel over the veth; only a full tx ring
# (counted) could lose one.
((kernel_ce <= edge_marks && kernel_ce + tx_dropped >= edge_marks)) ||
  e2e_fail "kernel CE count ${kernel_ce} disagrees with the emulator's ${edge_marks} marks"

# The same fields as a software run's summary: the emulated incast of the same fabric.
cat >"${E2E_DIR}/software.textproto" <<SCN
name: "software-incast"
${topology}
${wred}
traffic { dscp: 0 flow_list {
  flow { src_host: 0 dst_host: 2 message_bytes: 1000000 }
  flow { src_host: 1 dst_host: 2 message_bytes: 1000000 }
} }
SCN
"${E2E_FABRIC_EMU}" run "${E2E_DIR}/software.textproto" --out "${E2E_DIR}/software" --quiet >/dev/null ||
  e2e_fail "the software run failed"
python3 - "${SUMMARY}" "${E2E_DIR}/software/summary.json" <<'PY' || e2e_fail "serve's summary lacks fields of run's"
import json, sys
serve, run = (json.load(open(f)) for f in sys.argv[1:])
for key in ("switch_queues", "paused_host_uplinks", "packet_hops", "wire_bytes", "links"):
    assert key in serve and key in run, key
assert run["switch_queues"] and serve["switch_queues"]
fields = lambda s: set().union(*(q.keys() for q in s["switch_queues"]))
assert fields(serve) == fields(run), (fields(serve) ^ fields(run))
print("switch_queues fields:", sorted(fields(serve)))
PY
e2e_check_no_leak
e2e_log "PASS"
