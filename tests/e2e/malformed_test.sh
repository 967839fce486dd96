#!/usr/bin/env bash
# Malformed frames injected on a port are dropped and counted by reason, and the emulator keeps
# forwarding; at the end every mbuf is back in its pool.
#   malformed_test.sh FABRIC_EMU RAW_FRAMES
source "$(dirname "$0")/lib.sh"
e2e_init ma "$1"
readonly raw_frames=$2 per_kind=25

e2e_host 0 0
e2e_host 1 1
cat >"${E2E_DIR}/malformed.textproto" <<SCN
name: "e2e-malformed"
topology { fat_tree { k: 4 link_rate_gbps: 1 link_delay_ns: 1000 } }
$(e2e_ports)
SCN
e2e_start "${E2E_DIR}/malformed.textproto"

ip netns exec "${NS[0]}" ping -n -q -c 3 -i 0.05 -W 2 "${IP[1]}" >/dev/null ||
  e2e_fail "no forwarding before the malformed frames"
for kind in runt bad_ihl not_ip truncated_bth; do
  ip netns exec "${NS[0]}" "${raw_frames}" "${IN[0]}" "${kind}" "${per_kind}" "${IP[1]}" ||
    e2e_fail "raw_frames ${kind} failed"
done
# Still forwarding afterwards: every echo answered.
ip netns exec "${NS[0]}" ping -n -q -c 5 -i 0.05 -W 2 "${IP[1]}" >/dev/null ||
  e2e_fail "forwarding stopped after the malformed frames"
e2e_stop

# Each kind breaks exactly one rule, so each lands in exactly one counter (the namespaces run no
# IPv6, so nothing else that is not IPv4 or ARP reaches the port).
declare -A want=([runt]=runt [bad_ihl]=bad_ipv4_header [not_ip]=not_ipv4 [truncated_bth]=truncated_l4)
for kind in "${!want[@]}"; do
  got=$(e2e_json "j['ports'][0]['rx_drops']['${want[${kind}]}']")
  ((got == per_kind)) || e2e_fail "${kind}: ${got} counted as ${want[${kind}]}, sent ${per_kind}"
  e2e_log "${kind}: ${got} dropped as ${want[${kind}]}"
done
total=$(e2e_json "sum(j['ports'][0]['rx_drops'].values())")
((total == 4 * per_kind)) || e2e_fail "${total} drops in all, expected $((4 * per_kind))"
e2e_check_no_leak
e2e_log "PASS"
