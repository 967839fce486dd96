#!/usr/bin/env bash
# `fabric-emu topo` as a user meets it: the text, Graphviz that dot accepts, JSON whose counts
# equal the text's, endpoint pairs, and refusals with exit 2.
# shellcheck source=cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
scenario="$root/scenarios/default.textproto"  # k = 4 fat-tree: 16 hosts, 20 switches, 48 links

"$bin" topo "$scenario" >"$work/text" 2>"$work/stderr" || fail "topo: exit $?: $(cat "$work/stderr")"
grep -q "16 hosts (endpoints), 20 switches, 48 links" "$work/text" || fail "counts: $(cat "$work/text")"
# Full bisection of a k = 4 fat-tree: 8 hosts x 100 Gb/s.
grep -qE "bisection +800 Gb/s" "$work/text" || fail "bisection: $(cat "$work/text")"
# Across pods: (k/2)^2 = 4 shortest paths of 6 links.
grep -qE "paths +h0 -> h15: 4 shortest paths of 6 links" "$work/text" || fail "paths: $(cat "$work/text")"

# Graphviz accepts the DOT, from a file and from stdout.
if ! command -v dot >/dev/null; then
  fail "dot (Graphviz) is not installed: scripts/install-deps.sh installs it"
else
  "$bin" topo "$scenario" --dot "$work/fabric.dot" >/dev/null || fail "--dot FILE: exit $?"
  dot -Tsvg "$work/fabric.dot" -o "$work/fabric.svg" 2>"$work/dot_err" ||
    fail "dot -Tsvg refused the file: $(cat "$work/dot_err")"
  grep -q "<svg" "$work/fabric.svg" || fail "dot wrote no SVG"
  "$bin" topo "$scenario" --dot - | dot -Tsvg >/dev/null 2>"$work/dot_err" ||
    fail "dot -Tsvg refused stdout: $(cat "$work/dot_err")"
fi

# The JSON parses, and its counts equal the text's and the graph's own lists.
"$bin" topo "$scenario" --json "$work/fabric.json" --pair h3,12 >"$work/text_pair" ||
  fail "--json FILE: exit $?"
python3 - "$work/fabric.json" "$work/text" <<'PY' || fail "JSON does not match the text"
import json, re, sys
doc = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
s = doc["summary"]
hosts, switches, links = map(int, re.search(
    r"(\d+) hosts \(endpoints\), (\d+) switches, (\d+) links", text).groups())
assert (s["hosts"], s["switches"], s["links"]) == (hosts, switches, links), s
assert len(doc["nodes"]) == hosts + switches, len(doc["nodes"])
assert len(doc["links"]) == links, len(doc["links"])
assert sum(1 for n in doc["nodes"] if n["kind"] == "host") == hosts
bisection = float(re.search(r"bisection +(\d+) Gb/s", text).group(1))
assert abs(s["bisection_gbps"] - bisection) < 0.5, (s["bisection_gbps"], bisection)
assert s["diameter_links"] == int(re.search(r"diameter +(\d+) links", text).group(1))
for role in s["roles"]:
    assert re.search(r"\n +%s +%d +%d " % (role["role"], role["tier"], role["nodes"]), text), role
# --pair h3,12: hosts 3 and 12 are in pods 0 and 3.
assert (s["paths"]["src_host"], s["paths"]["dst_host"]) == (3, 12), s["paths"]
assert (s["paths"]["shortest_paths"], s["paths"]["links"]) == (4, 6), s["paths"]
PY
grep -qE "paths +h3 -> h12: 4 shortest paths" "$work/text_pair" || fail "--pair text: $(cat "$work/text_pair")"
"$bin" topo "$scenario" --json - | python3 -c "import json, sys; json.load(sys.stdin)" ||
  fail "--json - is not JSON alone"

# Refusals: exit 2 and a reason.
expect_exit2() {
  local pattern=$1
  shift
  "$bin" "$@" >"$work/stdout" 2>"$work/stderr"
  local rc=$?
  [ "$rc" -eq 2 ] || fail "$*: exit $rc, want 2"
  grep -qE -- "$pattern" "$work/stderr" || fail "$*: stderr lacks /$pattern/: $(cat "$work/stderr")"
}
expect_exit2 "not a host index" topo "$scenario" --pair 0,16
expect_exit2 "no host is named 'edge0'" topo "$scenario" --pair h0,edge0
expect_exit2 "takes two endpoints" topo "$scenario" --pair 3
expect_exit2 "cannot both go to stdout" topo "$scenario" --dot - --json -
expect_exit2 "unknown option '--out'" topo "$scenario" --out x
expect_exit2 "missing SCENARIO" topo
cat >"$work/odd_k.textproto" <<'PB'
topology {
  fat_tree { k: 5 }
}
traffic { permutation { message_bytes: 1000 } }
PB
expect_exit2 'odd_k.textproto:2:.*fat_tree\.k' topo "$work/odd_k.textproto"

# An output that cannot be written: exit 1, the run's failure, not bad input.
"$bin" topo "$scenario" --json "$work/no/such/dir/x.json" >/dev/null 2>"$work/stderr"
rc=$?
[ "$rc" -eq 1 ] || fail "unwritable --json: exit $rc, want 1"
grep -q "cannot create" "$work/stderr" || fail "unwritable --json: $(cat "$work/stderr")"

"$bin" topo --help >"$work/help" || fail "topo --help: exit $?"
grep -q -- "--dot FILE" "$work/help" || fail "topo --help does not explain --dot"
grep -q "bisection" "$work/help" || fail "topo --help does not explain the figures"

cli_finish "topo CLI"
