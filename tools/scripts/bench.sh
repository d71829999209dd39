#!/usr/bin/env bash
# The main job: installs what is missing, builds (Release), prints what the
# machine runs (simdax info), checks the conformance data on the best ISA,
# then runs the ISA benchmark and prints its table (workload x ISA, time,
# ratio to a memcpy and to a read pass of the same bytes; buffers at +16 bytes
# from a 64-byte boundary), the placement table (each workload and ISA with
# its buffers at +0/+4/+16/+48 bytes), then the sweep
# (simdax_bench --sweep, a few minutes) and its picture: build/sweep/sweep.{png,svg},
# copied to docs/img/ (the copy the README shows).
# Extra arguments go to simdax_bench's table run (e.g.
# --benchmark_filter=log_softmax). BENCH_SWEEP=0 skips the sweep.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bash "$root/tools/scripts/install_deps.sh" python3-matplotlib
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$root/build" -j "$(nproc 2>/dev/null || echo 2)"
"$root/build/tools/simdax" info
"$root/build/tools/simdax" conformance "$root/tests/data/conformance" | tail -1
"$root/build/bench/simdax_bench" "$@"
"$root/build/bench/simdax_bench" --placements
[ "${BENCH_SWEEP:-1}" = 0 ] && exit 0
mkdir -p "$root/build/sweep"
"$root/build/bench/simdax_bench" --sweep --benchmark_out="$root/build/sweep/sweep.json" \
  --benchmark_out_format=json >"$root/build/sweep/sweep.log"
/usr/bin/python3 "$root/tools/scripts/plot_sweep.py" "$root/build/sweep/sweep.json" "$root/build/sweep"
mkdir -p "$root/docs/img"
cp "$root/build/sweep/sweep.png" "$root/build/sweep/sweep.svg" "$root/docs/img/"
echo "sweep picture: docs/img/sweep.png (and .svg); raw figures: build/sweep/sweep.json"
