#!/usr/bin/env bash
# Configures and builds fabric-emu with CMake.
# Usage: scripts/build.sh [Release|Debug] [build-dir] [target...]
#   (defaults: Release, build/, every target; scripts/demo.sh builds only fabric-emu)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build_type=${1:-Release}
build_dir=${2:-build}
targets=("${@:3}")
case "${build_type}" in
  Release | Debug) ;;
  *)
    echo "usage: scripts/build.sh [Release|Debug] [build-dir] [target...]" >&2
    exit 2
    ;;
esac

# ccache (CMakeLists.txt) keys on paths relative to the checkout, so that another clone of the
# same sources reuses what this one compiled.
export CCACHE_BASEDIR="${PWD}"
echo "build: cmake -S . -B ${build_dir} -DCMAKE_BUILD_TYPE=${build_type}"
cmake -S . -B "${build_dir}" -DCMAKE_BUILD_TYPE="${build_type}" >/dev/null
target_args=()
((${#targets[@]} == 0)) || target_args=(--target "${targets[@]}")
echo "build: cmake --build ${build_dir} -j$(nproc) ${target_args[*]}"
cmake --build "${build_dir}" -j"$(nproc)" "${target_args[@]}"
