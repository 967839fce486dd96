#!/usr/bin/env bash
# Installs what is missing, builds the fabric-emu binary (Release, not the tests) and runs the
# default scenario.
# Extra arguments go to `fabric-emu run`, e.g. scripts/demo.sh --seed 7 --out out/seed7
# (relative paths are taken from the repository root).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/install-deps.sh
scripts/build.sh Release build fabric-emu

# Default the output directory only when the caller did not choose one; remember it either way
# to say where the files went.
out_dir=""
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[i]}" in
    --out) out_dir=${args[i + 1]:-} ;;
    --out=*) out_dir=${args[i]#--out=} ;;
  esac
done
if [[ -z "${out_dir}" ]]; then
  out_dir=out/default
  args+=(--out "${out_dir}")
fi

command=(build/fabric-emu run scenarios/default.textproto "${args[@]}")
echo "demo: ${command[*]}"
"${command[@]}"
echo "demo: summary ${out_dir}/summary.json, one row per flow in ${out_dir}/flows.csv"
