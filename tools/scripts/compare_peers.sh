#!/usr/bin/env bash
# Side-by-side comparison of simdax with oneDNN, PyTorch, ONNX Runtime and
# XNNPACK on
# the workloads of bench/peers/workloads.txt, on this machine, in one run:
# single thread and all the machine's threads. Prints ONE table (time and
# ratio to a memcpy of the same bytes for simdax and every peer, each peer's
# version, simdax's speedup over the fastest peer) and writes it to
# build/peers/table.md. Every output is checked against a float64 reference
# first; a wrong result is shown as "wrong", not timed.
#
# Installs what is missing: Debian libdnnl-dev, python3-torch, python3-onnx,
# python3-numpy, libxnnpack-dev, libpthreadpool-dev (nodejs/npm only if there
# is no node/npm at all), and
# onnxruntime-node with `npm install --ignore-scripts` into bench/peers/node/.
#
# Usage: tools/scripts/compare_peers.sh [--only W1,W2,...] [--threads "1 2"] [--keep-outputs]
# Environment: PEERS_OUT (default build/peers), SIMDAX_BUILD_DIR (a configured
# simdax build to reuse; default PEERS_OUT/simdax-build).
set -euo pipefail
start=$(date +%s)
root=$(cd "$(dirname "$0")/../.." && pwd)
peers="$root/bench/peers"
out=${PEERS_OUT:-$root/build/peers}
py=/usr/bin/python3  # Debian's python (torch, onnx, numpy), not a pyenv one
only=()
keep=()
ncpu=$(nproc 2>/dev/null || echo 1)
threads="1"
[ "$ncpu" -gt 1 ] && threads="1 $ncpu"
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only=(--only "$2"); shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --keep-outputs) keep=(--keep-outputs); shift ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
log() { printf '[compare_peers %4ss] %s\n' "$(( $(date +%s) - start ))" "$*" >&2; }

# ------------------------------------------------------------------ install
# Node.js may come from elsewhere than Debian: its packages only if absent.
node_pkgs=()
command -v node >/dev/null || node_pkgs+=(nodejs)
command -v npm >/dev/null || node_pkgs+=(npm)
bash "$root/tools/scripts/install_deps.sh" libdnnl-dev python3-torch python3-onnx python3-numpy \
  libxnnpack-dev libpthreadpool-dev "${node_pkgs[@]}"
if [ ! -f "$peers/node/node_modules/onnxruntime-node/package.json" ]; then
  log "npm install --ignore-scripts (onnxruntime-node)"
  (cd "$peers/node" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)
fi

# -------------------------------------------------------------------- build
mkdir -p "$out"
bdir=${SIMDAX_BUILD_DIR:-$out/simdax-build}
if [ ! -f "$bdir/CMakeCache.txt" ]; then
  log "configuring simdax in $bdir"
  cmake -S "$root" -B "$bdir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSIMDAX_BUILD_TESTS=OFF \
    -DSIMDAX_BUILD_BENCH=OFF -DSIMDAX_BUILD_TOOLS=OFF >/dev/null
fi
log "building simdax"
cmake --build "$bdir" --target simdax -j "$ncpu" >/dev/null
lib=$(find "$bdir" -name 'libsimdax.so' -print -quit)
[ -n "$lib" ] || { echo "libsimdax.so not found under $bdir" >&2; exit 1; }
libdir=$(dirname "$lib")
cxx=${CXX:-g++}
stale() {  # binary sources...: true (and the binary removed) if it is older than a source
  local bin=$1 src
  shift
  for src in "$@"; do
    if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ]; then
      rm -f "$bin"
      return 0
    fi
  done
  return 1
}
log "building the drivers"
if stale "$out/simdax_peer" "$peers/simdax_peer.cpp" "$peers/peer_common.hpp" "$lib" \
    "$root/include/simdax/simdax.h"; then
  $cxx -O2 -std=c++17 -I"$root/include" "$peers/simdax_peer.cpp" -o "$out/simdax_peer" \
    -L"$libdir" -lsimdax -Wl,-rpath,"$libdir" -lpthread &
fi
have_dnnl=0
if [ -f /usr/include/oneapi/dnnl/dnnl.hpp ]; then
  have_dnnl=1
  if stale "$out/onednn_peer" "$peers/onednn_peer.cpp" "$peers/peer_common.hpp"; then
    $cxx -O2 -std=c++17 -fopenmp "$peers/onednn_peer.cpp" -o "$out/onednn_peer" -ldnnl &
  fi
fi
have_xnnpack=0
if [ -f /usr/include/xnnpack.h ] && [ -f /usr/include/pthreadpool.h ]; then
  have_xnnpack=1
  if stale "$out/xnnpack_peer" "$peers/xnnpack_peer.cpp" "$peers/peer_common.hpp"; then
    $cxx -O2 -std=c++17 "$peers/xnnpack_peer.cpp" -o "$out/xnnpack_peer" -lXNNPACK -lpthreadpool &
  fi
fi
wait

# --------------------------------------------------------------- data, models
log "input data and ONNX models"
$py "$peers/make_data.py" "$out/data"
$py "$peers/make_models.py" "$out/data" "$out/models"

# ---------------------------------------------------------------------- run
results="$out/results"
rm -rf "$results"
mkdir -p "$results"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
export PEERS_TORCH_DEB PEERS_XNNPACK_DEB
PEERS_TORCH_DEB=$(dpkg-query -W -f='${Version}' python3-torch 2>/dev/null || true)
PEERS_XNNPACK_DEB=$(dpkg-query -W -f='${Version}' libxnnpack-dev 2>/dev/null || true)
run() {  # name command...: a peer that fails leaves its column "not run"
  local name=$1
  shift
  log "running $name (threads: $threads)"
  if ! "$@" 2>"$results/$name.log"; then
    echo "$name failed; its log ($results/$name.log) ends with:" >&2
    tail -5 "$results/$name.log" >&2
  fi
}
# shellcheck disable=SC2086  # $threads is a list
run simdax "$out/simdax_peer" "$peers/workloads.txt" "$out/data" "$results" $threads "${only[@]}"
if [ "$have_dnnl" = 1 ]; then
  # shellcheck disable=SC2086
  run onednn "$out/onednn_peer" "$peers/workloads.txt" "$out/data" "$results" $threads "${only[@]}"
fi
# shellcheck disable=SC2086
run torch $py "$peers/torch_peer.py" "$out/data" "$results" $threads "${only[@]}"
if [ "$have_xnnpack" = 1 ]; then
  # shellcheck disable=SC2086
  run xnnpack "$out/xnnpack_peer" "$peers/workloads.txt" "$out/data" "$results" $threads \
    "${only[@]}"
fi
# onnxruntime-node copies every output of every session.run into a new
# ArrayBuffer. V8 frees those only at its collections, many at once, and with
# glibc's default thresholds the freed memory goes back to the kernel (heap
# trim, or munmap above the adaptive mmap threshold): the next buffers fault
# in fresh zeroed pages, one fault per 4 KB (W1's 500 KB output: ~90 faults,
# most of a 1.5 ms call). Keeping freed memory, as a process that runs a model
# repeatedly would, leaves the binding's real cost: allocation and copy.
# shellcheck disable=SC2086
GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=134217728 \
run ort node "$peers/node/ort_peer.js" "$peers/workloads.txt" "$out/data" "$out/models" \
  "$results" $threads "${only[@]}"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# -------------------------------------------------------------------- table
log "checking outputs against the float64 reference"
export PEERS_LOAD="$load_before before the runs, $load_after after"
$py "$peers/check_peers.py" "$out/data" "$results" "$out/table.md" "${keep[@]}"
log "done in $(( $(date +%s) - start )) s; table in $out/table.md"
