#!/usr/bin/env bash
# Side-by-side comparison of simdax with oneDNN, PyTorch, ONNX Runtime,
# OpenVINO, JAX/XLA and XNNPACK on the workloads of bench/peers/workloads.txt,
# on this machine, in one run: single thread and all the machine's threads.
# Prints ONE table (time and ratio to a memcpy of the same bytes for simdax
# and every peer, each peer's version, simdax's speedup over the fastest peer)
# and writes it to build/peers/table.md. Every output is checked against a
# float64 reference first; a wrong result is shown as "wrong", not timed.
#
# The peers come from PyPI at the versions pinned in bench/peers/requirements.txt,
# installed into a venv of Debian's /usr/bin/python3 (build/peers/venv; the
# python3 first on PATH may be another one) whenever that file changed;
# XNNPACK is Debian's libxnnpack-dev. The oneDNN driver is built against the
# onednn/onednn-devel wheels' headers and library in the venv.
#
# Usage: tools/scripts/compare_peers.sh [--only W1,W2,...] [--threads "1 2"]
#            [--isa avx2] [--keep-outputs]
#   --isa ISA   simdax capped with SIMDAX_MAX_ISA=ISA; the peers capped where
#               they have a knob (oneDNN and torch's oneDNN ONEDNN_MAX_CPU_ISA,
#               torch ATEN_CPU_CAPABILITY, XLA --xla_cpu_max_isa); the table
#               says which ran. Output in build/peers/ISA/ then.
# Environment: PEERS_OUT (default build/peers), SIMDAX_BUILD_DIR (a configured
# simdax build to reuse; default build/peers/simdax-build).
set -euo pipefail
start=$(date +%s)
root=$(cd "$(dirname "$0")/../.." && pwd)
peers="$root/bench/peers"
base=${PEERS_OUT:-$root/build/peers}
only=()
keep=()
isa=""
ncpu=$(nproc 2>/dev/null || echo 1)
threads="1"
[ "$ncpu" -gt 1 ] && threads="1 $ncpu"
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only=(--only "$2"); shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --isa) isa="$2"; shift 2 ;;
    --keep-outputs) keep=(--keep-outputs); shift ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
out=$base${isa:+/$isa}
log() { printf '[compare_peers %4ss] %s\n' "$(( $(date +%s) - start ))" "$*" >&2; }

# ------------------------------------------------------------------ install
bash "$root/tools/scripts/install_deps.sh" libxnnpack-dev libpthreadpool-dev python3-venv
venv=$base/venv
py=$venv/bin/python
stamp=$venv/requirements.installed
if ! cmp -s "$peers/requirements.txt" "$stamp"; then
  t0=$(date +%s)
  [ -x "$py" ] || /usr/bin/python3 -m venv "$venv"
  log "pip install -r bench/peers/requirements.txt into $venv"
  # torch's wheel declares its CUDA libraries (cuda-toolkit, nvidia-*,
  # triton: ~6 GB) as plain dependencies. They are installed as declared
  # rather than skipped with --no-deps: what pip resolves is then what runs,
  # on any machine, and nothing of them loads on a CPU run.
  "$venv/bin/pip" install -q -r "$peers/requirements.txt"
  cp "$peers/requirements.txt" "$stamp"
  log "peers installed in $(( $(date +%s) - t0 )) s"
fi

# -------------------------------------------------------------------- build
mkdir -p "$out"
bdir=$(realpath -m "${SIMDAX_BUILD_DIR:-$base/simdax-build}")
if [ ! -f "$bdir/CMakeCache.txt" ]; then
  log "configuring simdax in $bdir"
  cmake -S "$root" -B "$bdir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSIMDAX_BUILD_TESTS=OFF \
    -DSIMDAX_BUILD_BENCH=OFF -DSIMDAX_BUILD_TOOLS=OFF >/dev/null
fi
log "building simdax"
cmake --build "$bdir" --target simdax -j "$ncpu" >/dev/null
# Not under $base: with SIMDAX_BUILD_DIR=build, build/peers/simdax-build holds
# another (older) library, which the driver would then load.
lib=$(find "$bdir" -path "$base" -prune -o -name 'libsimdax.so' -print -quit)
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
# The number codec the bench shares with the tools (tools/number_codec).
codec_src="$root/tools/number_codec/dtype_codec.cpp"
codec=("$codec_src" "$root/tools/number_codec/dtype_codec.hpp")
codec_flags=(-I"$root/tools/number_codec" -I"$root/include")
if stale "$base/simdax_peer" "$peers/simdax_peer.cpp" "$peers/peer_common.hpp" "$lib" \
    "$root/include/simdax/simdax.h"; then
  $cxx -O2 -std=c++17 -I"$root/include" "$peers/simdax_peer.cpp" -o "$base/simdax_peer" \
    -L"$libdir" -lsimdax -Wl,-rpath,"$libdir" -lpthread &
fi
# The wheel's libdnnl needs its siblings in venv/lib (TBB, SYCL, Intel
# runtime): DT_RPATH, unlike DT_RUNPATH, also serves those indirect loads.
if stale "$base/onednn_peer" "$peers/onednn_peer.cpp" "$peers/peer_common.hpp" "${codec[@]}" "$stamp"; then
  $cxx -O2 -std=c++17 -I"$venv/include" "${codec_flags[@]}" "$peers/onednn_peer.cpp" "$codec_src" -o "$base/onednn_peer" \
    -L"$venv/lib" -ldnnl -Wl,--disable-new-dtags,-rpath,"$venv/lib" &
fi
have_xnnpack=0
if [ -f /usr/include/xnnpack.h ] && [ -f /usr/include/pthreadpool.h ]; then
  have_xnnpack=1
  if stale "$base/xnnpack_peer" "$peers/xnnpack_peer.cpp" "$peers/peer_common.hpp" "${codec[@]}"; then
    $cxx -O2 -std=c++17 "${codec_flags[@]}" "$peers/xnnpack_peer.cpp" "$codec_src" -o "$base/xnnpack_peer" -lXNNPACK \
      -lpthreadpool &
  fi
fi
wait

# --------------------------------------------------------------- data, models
log "input data and ONNX models"
"$py" "$peers/make_data.py" "$base/data"
"$py" "$peers/make_models.py" "$base/data" "$base/models"

# ---------------------------------------------------------------------- run
results="$out/results"
rm -rf "$results"
mkdir -p "$results"
# The ISA caps, where a peer has one.
caps=()
if [ -n "$isa" ]; then
  caps=(SIMDAX_MAX_ISA="$isa" ONEDNN_MAX_CPU_ISA="${isa^^}" ATEN_CPU_CAPABILITY="$isa"
        XLA_FLAGS="--xla_cpu_max_isa=${isa^^}")
fi
cpus() { echo "0-$(( $1 - 1 ))"; }  # the first N CPUs, for taskset
export PEERS_XNNPACK_DEB
PEERS_XNNPACK_DEB=$(dpkg-query -W -f='${Version}' libxnnpack-dev 2>/dev/null || true)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
run() {  # name command...: a peer that fails leaves its column "not run"
  local name=$1
  shift
  log "running $name"
  if ! env "${caps[@]}" "$@" 2>>"$results/$name.log"; then
    echo "$name failed; its log ($results/$name.log) ends with:" >&2
    tail -5 "$results/$name.log" >&2
  fi
}
cd "$peers"  # the Python drivers import peers_common from here
# shellcheck disable=SC2086  # $threads is a list
run simdax "$base/simdax_peer" "$peers/workloads.txt" "$base/data" "$results" $threads "${only[@]}"
# The wheel's oneDNN runs its CPU engine through SYCL on the OpenCL CPU
# runtime of the intel-opencl-rt wheel (found through OCL_ICD_FILENAMES: no
# system ICD), with TBB threads sized from the CPU affinity.
for t in $threads; do
  run onednn env OCL_ICD_FILENAMES="$venv/lib/libintelocl.so" ONEDNN_VERBOSE=none \
    taskset -c "$(cpus "$t")" "$base/onednn_peer" "$peers/workloads.txt" "$base/data" \
    "$results" "$t" "${only[@]}"
done
export TORCHINDUCTOR_CACHE_DIR="$base/torchinductor"
# shellcheck disable=SC2086
run torch "$py" "$peers/torch_peer.py" "$base/data" "$results" $threads "${only[@]}"
# shellcheck disable=SC2086
run ort "$py" "$peers/ort_peer.py" "$base/data" "$base/models" "$results" $threads "${only[@]}"
# shellcheck disable=SC2086
run openvino "$py" "$peers/openvino_peer.py" "$base/data" "$results" $threads "${only[@]}"
# XLA's CPU thread pools follow the CPU affinity; one thread also turns
# Eigen's intra-op pool off.
for t in $threads; do
  flags=()
  [ -n "$isa" ] && flags+=(--xla_cpu_max_isa="${isa^^}")
  [ "$t" = 1 ] && flags+=(--xla_cpu_multi_thread_eigen=false)
  run jax env XLA_FLAGS="${flags[*]}" taskset -c "$(cpus "$t")" "$py" "$peers/jax_peer.py" \
    "$base/data" "$results" "$t" "${only[@]}"
done
if [ "$have_xnnpack" = 1 ]; then
  # shellcheck disable=SC2086
  run xnnpack "$base/xnnpack_peer" "$peers/workloads.txt" "$base/data" "$results" $threads \
    "${only[@]}"
fi
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# -------------------------------------------------------------------- table
log "checking outputs against the float64 reference"
export PEERS_LOAD="$load_before before the runs, $load_after after"
export PEERS_ISA="${isa:+simdax capped: SIMDAX_MAX_ISA=$isa}"
"$py" "$peers/check_peers.py" "$base/data" "$results" "$out/table.md" "${keep[@]}"
log "done in $(( $(date +%s) - start )) s; table in $out/table.md"
