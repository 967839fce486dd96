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

cli_finish "no_progress_cli"
