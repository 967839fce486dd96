#!/usr/bin/env bash
# A run that makes no progress, as a user meets it: the repro of a queue too small for a frame is
# refused before anything runs (exit 2), and a fabric that loses every data frame stops with
# exit 1, a diagnosis on stderr and its outputs written.
# shellcheck source=cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"

out="$work/out"
# PFC off and 1/65536 of the 16 MiB buffer: 256 bytes, no 4,158-byte frame fits.
cat >"$work/tiny_alpha.textproto" <<'PB'
topology { fat_tree { k: 2 } }
switch { pfc { enabled: false } queue { priority: 3 alpha: 1.52587890625e-05 } }
traffic { flow_list { flow { src_host: 0 dst_host: 1 message_bytes: 5000 } } }
PB
"$bin" run "$work/tiny_alpha.textproto" --out "$out" >"$work/stdout" 2>"$work/stderr"
rc=$?
[ "$rc" -eq 2 ] || fail "tiny alpha: exit $rc, want 2"
grep -q "tiny_alpha.textproto:2: switch.queue\[0\].alpha: .*drops every 4158-byte frame" \
  "$work/stderr" || fail "tiny alpha: no reason at the field: $(cat "$work/stderr")"

# Links with a bit-error rate of 1e-3 lose every 4 KB frame: the sender gives up after its
# retries (7 resends), the run stops and says where the frames went.
cat >"$work/noisy.textproto" <<'PB'
topology {
  link_class { name: "noisy" rate_gbps: 100 delay_ns: 1000 bit_error_rate: 1e-3 }
  fat_tree { k: 2 link_class: "noisy" }
}
traffic { flow_list { flow { src_host: 0 dst_host: 1 message_bytes: 4096 } } }
PB
"$bin" run "$work/noisy.textproto" --out "$out" --quiet >"$work/stdout" 2>"$work/stderr"
rc=$?
[ "$rc" -eq 1 ] || fail "noisy: exit $rc, want 1"
grep -q "run failed: no progress: 1 flows given up after 8 retransmission timeouts" \
  "$work/stderr" || fail "noisy: no diagnosis: $(cat "$work/stderr")"
grep -q "flow 0 (host 0 -> host 1): 8 frames dropped (bit_error)" "$work/stderr" ||
  fail "noisy: the flow and its drops are not named: $(cat "$work/stderr")"
grep -q '"stop_reason": "no progress"' "$out/summary.json" || fail "noisy: summary.json lacks the reason"
[ -s "$out/flows.csv" ] || fail "noisy: no flows.csv"

# A 1 Mb/s fabric drops nothing, but one frame's round trip outlasts the 67.108864 ms timeout,
# and 16 senders of 1 MiB each give up: a 4,096-byte payload is a 4,158-byte frame, 4,178 bytes
# on the wire with preamble and gap, 33.424 ms a hop at 1e6 b/s; an ACK, a 64-byte minimum
# frame, 0.672 ms a hop; 6 hops each way between pods of a k = 4 fat-tree and 1 us of delay a
# hop: 200.544 + 4.032 + 0.012 ms.
cat >"$work/slow.textproto" <<'PB'
topology { fat_tree { k: 4 link_rate_gbps: 0.001 link_delay_ns: 1000 } }
traffic { permutation { message_bytes: 1048576 } }
PB
"$bin" run "$work/slow.textproto" --out "$out" --quiet >"$work/stdout" 2>"$work/stderr"
rc=$?
[ "$rc" -eq 1 ] || fail "slow: exit $rc, want 1"
grep -qF "no hop of its path dropped a frame: one frame's round trip on the idle path (204588.000 us) is longer than the retransmission timeout (67108.864 us)" \
  "$work/stderr" || fail "slow: the timeout is not named: $(cat "$work/stderr")"

cli_finish "no_progress_cli"
