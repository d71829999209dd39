#!/usr/bin/env bash
# The main job: installs what is missing, builds (Release), prints what the
# machine runs (simdax info), checks the conformance data on the best ISA,
# then runs the ISA benchmark and prints its table (workload x ISA, time,
# ratio to a memcpy of the same bytes).
# Extra arguments go to simdax_bench (e.g. --benchmark_filter=log_softmax).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bash "$root/tools/scripts/install_deps.sh"
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$root/build" -j "$(nproc 2>/dev/null || echo 2)"
"$root/build/tools/simdax" info
"$root/build/tools/simdax" conformance "$root/tests/data/conformance" | tail -1
"$root/build/bench/simdax_bench" "$@"
