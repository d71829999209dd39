#!/usr/bin/env bash
# Fuzzing (issue #6): builds tests/fuzz — its own small CMake project, clang
# with libFuzzer + AddressSanitizer + UndefinedBehaviorSanitizer over the
# library and every ISA's kernels — and runs fuzz_operator for a bounded time.
# A quarter of the input space (first byte in [0x70,0x90) or [0xD0,0xF0))
# goes to AttentionSoftmax / LayerNormalization / RMSNormalization
# (tests/fuzz/fuzz_transformer.cpp), the rest to the other operators.
#
# Usage: tools/scripts/fuzz.sh [SECONDS]        (default 120, or $FUZZ_TIME)
# Environment:
#   FUZZ_BUILD          build directory (default <root>/build-fuzz)
#   FUZZ_JOBS           build jobs (default: nproc)
#   FUZZ_SEED           libFuzzer's -seed (default 1: CI explores the same
#                       input sequence every run, a slower machine a prefix
#                       of it; set 0 for a random seed when hunting)
# The seeds in tests/fuzz/corpus are read, never written; new inputs go to
# $FUZZ_BUILD/corpus (kept between runs). A failure leaves the input in
# $FUZZ_BUILD/artifacts/; reproduce it, with the decoded case and every
# element printed, by
#   SIMDAX_FUZZ_PRINT=1 $FUZZ_BUILD/fuzz_operator $FUZZ_BUILD/artifacts/crash-...
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-${FUZZ_TIME:-120}}
build=${FUZZ_BUILD:-$root/build-fuzz}
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}
seed=${FUZZ_SEED:-1}

bash "$root/tools/scripts/install_deps.sh" clang libclang-rt-dev

start=$SECONDS
cmake -S "$root/tests/fuzz" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
cmake --build "$build" -j "$jobs" --target fuzz_operator
echo "fuzz build: $((SECONDS - start)) s"

mkdir -p "$build/corpus" "$build/artifacts"
log="$build/fuzz.log"
run_start=$SECONDS
set +e
"$build/fuzz_operator" -seed="$seed" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 \
  -max_len=4096 -print_final_stats=1 -artifact_prefix="$build/artifacts/" \
  "$build/corpus" "$root/tests/fuzz/corpus" >"$log" 2>&1
status=$?
set -e
ran=$((SECONDS - run_start))
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
units=$(find "$build/corpus" -type f | wc -l)
seeds=$(find "$root/tests/fuzz/corpus" -type f | wc -l)
echo "fuzz: ${execs:-?} executions in ${ran} s (${rate:-?}/s), corpus ${units} inputs" \
     "(+ ${seeds} seeds), log $log"
if [ $status -ne 0 ]; then
  grep -m1 -A12 -E "=== simdax fuzz failure|ERROR: (AddressSanitizer|libFuzzer)|runtime error" "$log" || tail -30 "$log"
  ls -1 "$build/artifacts/" | sed 's/^/artifact: /'
  echo "fuzz: FAILED (exit $status)"
  exit 1
fi
echo "fuzz: passed in $((SECONDS - start)) s"
