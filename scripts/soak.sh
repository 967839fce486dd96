#!/usr/bin/env bash
# A soak test of a paced run with its HTTP API scraped every second (outside CI: an hour by
# default). The run is a k = 4 fat-tree permutation of 2 GB messages at --pace 1e-5, far from
# finished after an hour; /v1/status, /metrics and /v1/flows are fetched once a second, and the
# process's resident memory (VmRSS) is sampled with each. At the end the run is stopped with
# SIGTERM (it must write its outputs and exit 143) and the script reports the RSS after the
# warm-up and at the end, its growth per hour, and how many scrapes failed.
#
#   scripts/soak.sh                  an hour, with build/fabric-emu
#   SOAK_SECONDS=60 scripts/soak.sh  a minute (the script working, not a soak)
#   SOAK_BIN=path/to/fabric-emu SOAK_OUT=dir scripts/soak.sh
#
# Writes SOAK_OUT (default build/soak)/rss.csv (elapsed_s,rss_kib) and the run's outputs in
# SOAK_OUT/run. Exits 1 when a scrape failed or the run did not end as asked.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

seconds=${SOAK_SECONDS:-3600}
bin=${SOAK_BIN:-build/fabric-emu}
out=${SOAK_OUT:-build/soak}
# The first tenth of the soak (at most 5 min) is warm-up: pools, caches and the allocator reach
# their working size; growth is counted from there.
warmup=$((seconds / 10 < 300 ? seconds / 10 : 300))

command -v curl >/dev/null || { echo "soak: curl is missing" >&2; exit 2; }
[ -x "${bin}" ] || { echo "soak: ${bin} is not built (scripts/build.sh)" >&2; exit 2; }
mkdir -p "${out}"
cat >"${out}/soak.textproto" <<'PB'
name: "soak"
topology { fat_tree { k: 4 } }
traffic { permutation { message_bytes: 2000000000 } }
run { seed: 1 }
PB

"${bin}" run "${out}/soak.textproto" --out "${out}/run" --api 127.0.0.1:0 --pace 1e-5 \
  --quiet >"${out}/stdout" 2>"${out}/stderr" &
pid=$!
trap 'kill -s TERM "${pid}" 2>/dev/null || true' EXIT
until grep -q "api: listening on" "${out}/stderr" 2>/dev/null; do
  kill -0 "${pid}" 2>/dev/null || { echo "soak: the run ended: $(cat "${out}/stderr")" >&2; exit 1; }
  sleep 0.1
done
url=$(grep -o 'http://127.0.0.1:[0-9]*' "${out}/stderr" | head -1)
echo "soak: run ${pid} at ${url}, ${seconds} s, RSS sampled every second into ${out}/rss.csv"

rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
echo "elapsed_s,rss_kib" >"${out}/rss.csv"
failed=0
scrapes=0
start=${SECONDS}
while ((SECONDS - start < seconds)); do
  for path in /v1/status /metrics "/v1/flows?state=all"; do
    scrapes=$((scrapes + 1))
    curl -sf -o /dev/null "${url}${path}" || failed=$((failed + 1))
  done
  echo "$((SECONDS - start)),$(rss_kib "${pid}")" >>"${out}/rss.csv"
  sleep 1
done

kill -s TERM "${pid}"
code=0
wait "${pid}" || code=$?
trap - EXIT

python3 - "${out}/rss.csv" "${warmup}" "${failed}" "${scrapes}" <<'PY'
import csv, sys
rows = [(int(r["elapsed_s"]), int(r["rss_kib"])) for r in csv.DictReader(open(sys.argv[1]))]
warmup, failed, scrapes = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
after = [r for r in rows if r[0] >= warmup] or rows
(t0, rss0), (t1, rss1) = after[0], after[-1]
hours = max(t1 - t0, 1) / 3600
peak = max(r[1] for r in rows)
print(f"soak: {len(rows)} samples over {rows[-1][0]} s; {scrapes} scrapes, {failed} failed")
print(f"soak: RSS {rss0} KiB at {t0} s (after the warm-up), {rss1} KiB at {t1} s, peak {peak} KiB")
print(f"soak: growth {rss1 - rss0} KiB, {(rss1 - rss0) / hours:.0f} KiB per hour")
PY
if ((failed > 0)); then
  echo "soak: FAIL: ${failed} scrapes failed" >&2
  exit 1
fi
if ((code != 143)); then
  echo "soak: FAIL: the run exited ${code} after SIGTERM, want 143: $(tail -3 "${out}/stderr")" >&2
  exit 1
fi
grep -q '"stop_reason": "signal SIGTERM"' "${out}/run/summary.json" ||
  { echo "soak: FAIL: summary.json does not say the run was stopped" >&2; exit 1; }
echo "soak: passed"
