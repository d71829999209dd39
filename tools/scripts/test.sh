#!/usr/bin/env bash
# Every test: installs what is missing, checks that the tree follows
# .clang-format (tools/scripts/check_format.sh), builds, and runs
#  1. the full suite once per ISA this machine runs (ctest), the CLI
#     conformance run and the C99 API test;
#  2. the suite under emulated CPUs (qemu-x86_64 Haswell = AVX2 only,
#     Nehalem = no AVX) to prove dispatch picks the right level there;
#  3. the suite built with AddressSanitizer + UndefinedBehaviorSanitizer;
#  4. the concurrency tests built with ThreadSanitizer, and the libFuzzer
#     target for SIMDAX_FUZZ_TIME seconds (default 120; tools/scripts/fuzz.sh);
#  5. the Python package: wheel built in build/pyenv, pytest over
#     tests/python (tools/scripts/test_python.sh);
#  6. the aarch64 cross build (cmake/aarch64-linux-gnu.cmake) under
#     qemu-aarch64: an FP16 CPU (max) must get neonfp16, an ARMv8.0 one
#     (cortex-a53) neon, and the suite passes on both.
# Usage: tools/scripts/test.sh [--quick]   (--quick: step 1, label quick only)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)
quick=0
[ "${1:-}" = "--quick" ] && quick=1

bash "$root/tools/scripts/install_deps.sh" qemu-user g++-aarch64-linux-gnu

stage() { echo "== $1 (at $((SECONDS - start)) s)"; }
configure_build() {  # dir, extra cmake args... (BUILD_TARGET: one target, else all)
  local dir=$1; shift
  stage "build $(basename "$dir")"
  cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build "$dir" -j "$jobs" ${BUILD_TARGET:+--target "$BUILD_TARGET"}
}

start=$SECONDS
stage "format"
bash "$root/tools/scripts/check_format.sh"
configure_build "$root/build"
if [ $quick -eq 1 ]; then
  ctest --test-dir "$root/build" -L quick --output-on-failure -j "$jobs"
  exit 0
fi
stage "full suite"
ctest --test-dir "$root/build" --output-on-failure -j "$jobs"

configure_build "$root/build-asan" -DSIMDAX_SANITIZE=address,undefined \
  -DSIMDAX_BUILD_BENCH=OFF
stage "asan+ubsan quick suite"
ctest --test-dir "$root/build-asan" -L quick --output-on-failure -j "$jobs"
# ThreadSanitizer: the threaded tests (*Concurrency*) once per ISA (exit 77:
# not on this machine). setarch -R: gcc 12's TSan rejects some high-entropy
# ASLR layouts.
# Only the test program: the stage runs nothing else.
BUILD_TARGET=simdax_tests configure_build "$root/build-tsan" -DSIMDAX_SANITIZE=thread -DSIMDAX_BUILD_BENCH=OFF
stage "tsan"
# Every ISA's name, as the library lists them (`simdax info`).
isas=$("$root/build/tools/simdax" info | awk '$2 == "compiled" {print $1}')
[ -n "$isas" ] || { echo "tsan: simdax info listed no ISA"; exit 1; }
for isa in $isas; do
  rc=0
  SIMDAX_MAX_ISA=$isa TSAN_OPTIONS=halt_on_error=1 setarch "$(uname -m)" -R \
    "$root/build-tsan/tests/simdax_tests" --gtest_filter='*Concurrency*' \
    >"$root/build-tsan/tsan_$isa.log" 2>&1 || rc=$?
  [ $rc -eq 77 ] && continue
  if [ $rc -ne 0 ]; then tail -60 "$root/build-tsan/tsan_$isa.log"; exit 1; fi
  echo "tsan $isa: $(grep -E '^\[  PASSED  \]' "$root/build-tsan/tsan_$isa.log")"
done
# aarch64 NEON under qemu-user (README "Arm (aarch64)"); no benchmarks there.
configure_build "$root/build-arm" -DSIMDAX_BUILD_BENCH=OFF \
  -DCMAKE_TOOLCHAIN_FILE="$root/cmake/aarch64-linux-gnu.cmake"
stage "aarch64 suite under qemu"
ctest --test-dir "$root/build-arm" --output-on-failure -j "$jobs"
# libFuzzer (clang, ASan + UBSan) on random descriptors for a bounded time,
# with fuzz.sh's fixed seed (FUZZ_SEED=1): the same exploration every run.
# Anything fails the stage: a crash, hang or sanitizer report, and an output
# off the reference (the pass rule, MVN's range rule docs/mvn_range.md
# included). A finding is fixed and its input added to tests/fuzz/corpus.
stage "fuzz"
bash "$root/tools/scripts/fuzz.sh" "${SIMDAX_FUZZ_TIME:-120}" | tee "$root/build/fuzz_stage.log"
"${FUZZ_BUILD:-$root/build-fuzz}/fuzz_operator" "$root"/tests/fuzz/corpus/* >"$root/build/fuzz_seeds.log" 2>&1 ||
  { tail -30 "$root/build/fuzz_seeds.log"; echo "fuzz: a seed failed"; exit 1; }
echo "fuzz: all $(ls "$root/tests/fuzz/corpus" | wc -l) seeds pass"
stage "python"
bash "$root/tools/scripts/test_python.sh"
# The installed package, consumed the three ways a project would.
stage "installed package"
JOBS=$jobs bash "$root/tools/scripts/check_install.sh" --build-dir "$root/build" --subdirectory

echo "all test stages passed in $((SECONDS - start)) s"
