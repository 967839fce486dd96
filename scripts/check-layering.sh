#!/usr/bin/env bash
# Checks that every #include of the sources goes down or sideways, never up: each folder below is
# a CMake library, listed lowest first, and a file may include only files of its own folder or of
# folders listed before it. A total order leaves no room for a cycle between libraries. Run by
# ctest (layering); prints each include that breaks the order and exits 1.
#
#   scripts/check-layering.sh [ROOT]
set -euo pipefail
root=${1:-$(dirname "${BASH_SOURCE[0]}")/..}
cd "$root"

# Lowest first. A folder not listed belongs to its nearest listed parent.
layers=(
  core proto topology congestion dataplane traffic
  control/process control/report/html control/scenario control/emulation control/report
  control/api control/cli control/sweep control/run control/serve
  control/cli/main.cc  # the executable, above every library
)

declare -A rank
for i in "${!layers[@]}"; do rank[${layers[$i]}]=$i; done

# The rank of the library holding `path` (a file or an include path), or -1 if none does, in
# `found` (no subshell: the script runs it for every include).
rank_of() {
  local dir=$1
  while [[ "$dir" == */* ]]; do
    if [[ -n "${rank[$dir]+x}" ]]; then
      found=${rank[$dir]}
      return
    fi
    dir=${dir%/*}
  done
  found=${rank[$dir]--1}
}

bad=0
checked=0
while IFS= read -r file; do
  rank_of "$file"
  own=$found
  [[ "$own" -ge 0 ]] || continue
  while IFS=: read -r line target; do
    rank_of "$target"
    to=$found
    checked=$((checked + 1))
    if [[ "$to" -gt "$own" ]]; then
      echo "$file:$line: includes $target, of ${layers[$to]}, above ${layers[$own]}"
      bad=1
    fi
  done < <(grep -n '^#include "' "$file" | sed -E 's/^([0-9]+):#include "([^"]+)".*/\1:\2/')
done < <(find "${layers[@]%%/*}" -name "*.h" -o -name "*.cc" | sort -u)

if [[ "$bad" -ne 0 ]]; then
  echo "layering: includes above their library (order: ${layers[*]})"
  exit 1
fi
echo "layering: ${checked} includes checked, none goes up"
