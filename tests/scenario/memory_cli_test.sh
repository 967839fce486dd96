#!/usr/bin/env bash
# A run given less memory than it needs, as a user meets it (run.memory_limit_bytes stands for a
# small machine): a fabric that cannot even be set up is refused before anything is built, with
# what it needs; a run whose packets in flight outgrow the memory stops with exit 1, says how
# many packets it held, and writes its outputs so far.
# shellcheck source=cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"

out="$work/out"
# k = 16: 1,024 hosts, 320 switches, 3,072 links (6,144 link ends) and 1,024 messages. At the
# per-element costs of docs/scale.md that is 96 MiB + 6,144 x 768 + 1,024 x 640 + 320 x 4,608 +
# 1,024 x 1,024 bytes, 0.10 GiB with the smallest pool, more than 90% of 64 MiB.
cat >"$work/k16.textproto" <<'PB'
topology { fat_tree { k: 16 } }
traffic { permutation { message_bytes: 1000000 } }
run { memory_limit_bytes: 67108864 }
PB
"$bin" run "$work/k16.textproto" --out "$out/k16" --quiet >"$work/stdout" 2>"$work/stderr"
rc=$?
[ "$rc" -eq 1 ] || fail "k16: exit $rc, want 1"
grep -qF "the fabric needs about 0.10 GiB before its first packet moves (6144 link ends, 1024 host ports, 320 switches, 1024 messages; docs/scale.md) and run.memory_limit_bytes allows 0.06 GiB" \
  "$work/stderr" || fail "k16: not refused with what it needs: $(cat "$work/stderr")"
[ ! -e "$out/k16/summary.json" ] || fail "k16: refused, yet summary.json was written"

# A 15-to-1 incast of 8 MiB messages in 256-byte payloads, without PFC or congestion control,
# into 256 MiB switch buffers: the receiver's port drains 1/15 of what arrives, so up to 14/15 of
# the 491,520 frames (458,752) pile up in its ToR. The 192 MiB limit, less 10% and the estimated
# set-up of a k = 4 fabric (96 MiB + 96 link ends x 768 + 16 x 640 + 20 x 4,608 + 15 x 1,024
# bytes), leaves room for 358,656 packets of 224 bytes: the pool stops there.
cap=$(((201326592 / 100 * 90 - (100663296 + 96 * 768 + 16 * 640 + 20 * 4608 + 15 * 1024)) / 224))
cat >"$work/incast.textproto" <<'PB'
topology { fat_tree { k: 4 } }
switch { buffer_bytes: 268435456 pfc { enabled: false } }
nic { mtu_payload_bytes: 256 }
traffic { incast { receiver_host: 0 senders: 15 message_bytes: 8388608 } }
run { memory_limit_bytes: 201326592 }
PB
"$bin" run "$work/incast.textproto" --out "$out/incast" --quiet >"$work/stdout" 2>"$work/stderr"
rc=$?
[ "$rc" -eq 1 ] || fail "incast: exit $rc, want 1"
grep -qE "run failed: the packet pool ran out at simulated [0-9]+ ns, holding [0-9]+ packets .*run.memory_limit_bytes allows 0.19 GiB" \
  "$work/stderr" || fail "incast: no reason: $(cat "$work/stderr")"
grep -q '"stop_reason": "packet memory"' "$out/incast/summary.json" ||
  fail "incast: summary.json lacks the stop reason"
grep -q '"failure": "the packet pool ran out' "$out/incast/summary.json" ||
  fail "incast: summary.json lacks the failure"
[ -s "$out/incast/flows.csv" ] || fail "incast: no flows.csv"
# The packets held at the stop are at most the cap (a few may have left the fabric since the
# pool ran dry, before the run looked), and more than the 8,191 of the smallest pool.
held=$(sed -n 's/.*"mbufs_in_use_at_end": \([0-9]*\).*/\1/p' "$out/incast/summary.json")
[ -n "$held" ] && [ "$held" -le "$cap" ] && [ "$held" -gt 8191 ] ||
  fail "incast: $held packets held at the stop, want at most the cap of $cap"
grep -qE "holding $held packets" "$work/stderr" || fail "incast: the count held is not the one said"

# The same incast with the machine's memory completes: 15 x 8 MiB delivered, nothing dropped.
sed -i '/memory_limit_bytes/d' "$work/incast.textproto"
"$bin" run "$work/incast.textproto" --out "$out/incast_full" --quiet >"$work/stdout" 2>"$work/stderr"
rc=$?
[ "$rc" -eq 0 ] || fail "incast, machine's memory: exit $rc, want 0: $(cat "$work/stderr")"
grep -q '"flows_completed": 15' "$out/incast_full/summary.json" ||
  fail "incast, machine's memory: not every flow completed"

# A limit that is a slip of units is refused at its line.
cat >"$work/slip.textproto" <<'PB'
topology { fat_tree { k: 4 } }
traffic { permutation { message_bytes: 4096 } }
run { memory_limit_bytes: 16 }
PB
"$bin" validate "$work/slip.textproto" >"$work/stdout" 2>"$work/stderr"
rc=$?
[ "$rc" -eq 2 ] || fail "slip: exit $rc, want 2"
grep -q "slip.textproto:3: run.memory_limit_bytes: must be" "$work/stderr" ||
  fail "slip: not refused at its line: $(cat "$work/stderr")"

cli_finish "memory_cli"
