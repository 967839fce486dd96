#!/usr/bin/env bash
# Configures and builds fabric-emu with CMake.
# Usage: scripts/build.sh [Release|Debug] [build-dir]   (defaults: Release, build/)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build_type=${1:-Release}
build_dir=${2:-build}
case "${build_type}" in
  Release | Debug) ;;
  *)
    echo "usage: scripts/build.sh [Release|Debug] [build-dir]" >&2
    exit 2
    ;;
esac

echo "build: cmake -S . -B ${build_dir} -DCMAKE_BUILD_TYPE=${build_type}"
cmake -S . -B "${build_dir}" -DCMAKE_BUILD_TYPE="${build_type}" >/dev/null
echo "build: cmake --build ${build_dir} -j$(nproc)"
cmake --build "${build_dir}" -j"$(nproc)"
