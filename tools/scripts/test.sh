#!/usr/bin/env bash
# Every test: installs what is missing, builds, and runs
#  1. the full suite once per ISA this machine runs (ctest), the CLI
#     conformance run and the C99 API test;
#  2. the suite under emulated CPUs (qemu-x86_64 Haswell = AVX2 only,
#     Nehalem = no AVX) to prove dispatch picks the right level there;
#  3. the suite built with AddressSanitizer + UndefinedBehaviorSanitizer.
# Usage: tools/scripts/test.sh [--quick]   (--quick: step 1, label quick only)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)
quick=0
[ "${1:-}" = "--quick" ] && quick=1

bash "$root/tools/scripts/install_deps.sh" qemu-user

configure_build() {  # dir, extra cmake args...
  local dir=$1; shift
  cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
}

start=$SECONDS
configure_build "$root/build"
if [ $quick -eq 1 ]; then
  ctest --test-dir "$root/build" -L quick --output-on-failure -j "$jobs"
  exit 0
fi
ctest --test-dir "$root/build" --output-on-failure -j "$jobs"

configure_build "$root/build-asan" -DSIMDAX_SANITIZE=address,undefined \
  -DSIMDAX_BUILD_BENCH=OFF
ctest --test-dir "$root/build-asan" -L quick --output-on-failure -j "$jobs"
# The installed package, consumed the three ways a project would.
JOBS=$jobs bash "$root/tools/scripts/check_install.sh" --build-dir "$root/build" --subdirectory

echo "all test stages passed in $((SECONDS - start)) s"
