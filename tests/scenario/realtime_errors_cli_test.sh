#!/usr/bin/env bash
# Real-time mode's set-up errors say what failed, where, and what to do:
# - a port whose interface does not exist: serve refuses it before the EAL starts (exit 2) with
#   FILE:LINE of the port; validate, which may run on another machine, warns and exits 0;
# - hugepage options on a machine without hugepages: serve says none are reserved and how to
#   reserve them or run without (skipped where hugepages are reserved);
# - an lcore the machine lacks: the EAL's refusal, with no word of hugepages;
# - --eal arguments serve refuses: exit 2 naming --eal, before the EAL starts;
# - an interface that is down: a warning (needs CAP_NET_ADMIN to make one; skipped without);
# - an API it cannot start (a token file others may read): exit 2 before the EAL starts.
#   realtime_errors_cli_test.sh FABRIC_EMU SOURCE_ROOT
source "$(dirname "$0")/cli_lib.sh"

missing="fe-none$$"
cat >"$work/missing.textproto" <<SCN
topology { fat_tree { k: 4 } }
realtime {
  port { device_args: "net_null0" host: 1 }
  port { device_args: "net_af_packet0,iface=${missing}" host: 0 }
}
SCN
want="$work/missing.textproto:4: realtime.port[1].device_args: interface ${missing} does not exist on this machine"
"$bin" serve "$work/missing.textproto" --out "$work/out" >"$work/serve.out" 2>"$work/serve.err"
rc=$?
[ "$rc" -eq 2 ] || fail "serve with a missing interface: exit $rc, want 2"
grep -qxF "$want" "$work/serve.err" || fail "serve did not say: $want (said: $(cat "$work/serve.err"))"
grep -q "EAL" "$work/serve.err" && fail "serve started the EAL for a missing interface"
"$bin" validate "$work/missing.textproto" >"$work/validate.out" 2>"$work/validate.err"
rc=$?
[ "$rc" -eq 0 ] || fail "validate with a missing interface: exit $rc, want 0 (a warning)"
grep -qxF "warning: $want" "$work/validate.err" || fail "validate did not warn: $want"

# serve_with_eal NAME ARGS: serve on a null device with these EAL arguments, its output in
# $work/NAME.out and .err, its exit status in rc.
serve_with_eal() {
  cat >"$work/$1.textproto" <<SCN
topology { fat_tree { k: 4 } }
realtime {
  eal_args: "$2"
  port { device_args: "net_null0" host: 0 }
}
SCN
  "$bin" serve "$work/$1.textproto" --out "$work/out" --quiet >"$work/$1.out" 2>"$work/$1.err"
  rc=$?
}

hugepages=$(awk '/^HugePages_Total:/ {print $2}' /proc/meminfo)
if [ "${hugepages:-0}" -eq 0 ]; then
  serve_with_eal huge "--huge-dir /dev/hugepages"
  [ "$rc" -eq 1 ] || fail "serve asking for hugepages where none are: exit $rc, want 1"
  grep -q "the arguments ask for hugepages, but no hugepages are reserved" "$work/huge.err" ||
    fail "serve did not say why hugepages failed: $(cat "$work/huge.err")"
  grep -q "hugepages-2048kB/nr_hugepages" "$work/huge.err" || fail "serve did not say what to do"
else
  echo "hugepages are reserved here: the no-hugepage message is not checked"
fi
# An lcore this machine lacks, beside hugepage options: the EAL refuses the argument before it
# looks at memory, and serve must not send the user off to reserve hugepages.
serve_with_eal lcore "--huge-dir /dev/hugepages -l $(nproc)"
[ "$rc" -eq 1 ] || fail "serve on an lcore the machine lacks: exit $rc, want 1"
grep -q "DPDK EAL initialisation failed (Invalid argument)" "$work/lcore.err" ||
  fail "serve did not report the EAL's refusal: $(cat "$work/lcore.err")"
if grep -q "hugepages are reserved\|hugetlbfs is mounted" "$work/lcore.err"; then
  fail "serve blamed hugepages for a refused lcore: $(cat "$work/lcore.err")"
fi
# --eal is checked as the scenario's eal_args are, before anything starts: exit 2, naming --eal.
cat >"$work/null.textproto" <<SCN
topology { fat_tree { k: 4 } }
realtime { port { device_args: "net_null0" host: 0 } }
SCN
"$bin" serve "$work/null.textproto" --out "$work/out" --eal "-d librte_net_null.so" \
  >"$work/eal.out" 2>"$work/eal.err"
rc=$?
[ "$rc" -eq 2 ] || fail "serve with a refused --eal: exit $rc, want 2"
grep -q "^fabric-emu: serve: --eal: -d: " "$work/eal.err" ||
  fail "serve did not name --eal: $(cat "$work/eal.err")"
if grep -q "EAL arguments:" "$work/eal.err"; then fail "serve started before refusing --eal"; fi
# An interface that exists but is down: validate and serve warn (serve would get no frame).
down="fe-dn$$"
if ip link add "$down" type veth peer name "${down}p" 2>/dev/null; then
  cat >"$work/down.textproto" <<SCN
topology { fat_tree { k: 4 } }
realtime { port { device_args: "net_af_packet0,iface=$down" host: 0 } }
SCN
  "$bin" validate "$work/down.textproto" >/dev/null 2>"$work/down.err"
  rc=$?
  up_rc=0
  ip link set "$down" up && "$bin" validate "$work/down.textproto" >/dev/null 2>"$work/up.err" ||
    up_rc=$?
  ip link del "$down"
  [ "$rc" -eq 0 ] && [ "$up_rc" -eq 0 ] || fail "validate with an interface down: exit $rc/$up_rc"
  grep -qxF "warning: interface $down is down: the server behind it can send nothing (ip link set $down up)" \
    "$work/down.err" || fail "validate did not warn of a down interface: $(cat "$work/down.err")"
  [ ! -s "$work/up.err" ] || fail "validate warned of an interface that is up: $(cat "$work/up.err")"
else
  echo "cannot create a veth here: the down-interface warning is not checked"
fi
# An API token file others may read is refused before the EAL starts or a device is opened.
printf 'secret-token-of-the-test\n' >"$work/token"
chmod 644 "$work/token"
"$bin" serve "$work/null.textproto" --out "$work/out" --api 127.0.0.1:0 \
  --api-token-file "$work/token" >"$work/token.out" 2>"$work/token.err"
rc=$?
[ "$rc" -eq 2 ] || fail "serve with a world-readable token file: exit $rc, want 2"
grep -q "^serve: --api-token-file .*others than its owner may read or write it" "$work/token.err" ||
  fail "serve did not say why the token file was refused: $(cat "$work/token.err")"
if grep -q "EAL arguments:" "$work/token.err"; then fail "serve started before refusing the API"; fi
cli_finish realtime_errors_cli
