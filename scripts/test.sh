#!/usr/bin/env bash
# Installs what is missing, builds Release into build/ and runs the whole test suite.
# Extra arguments go to ctest, e.g. scripts/test.sh -L unit  or  scripts/test.sh -R fat_tree
# Exit code: ctest's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/install-deps.sh
scripts/build.sh Release build
echo "test: ctest --test-dir build --output-on-failure -j2 $*"
exec ctest --test-dir build --output-on-failure -j2 "$@"
