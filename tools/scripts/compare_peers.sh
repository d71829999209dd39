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
#   --isa avx2  every process on an AVX2-only CPU: simdax capped with
#               SIMDAX_MAX_ISA=avx2, the peers with their knobs where they have
#               one (oneDNN and torch's oneDNN ONEDNN_MAX_CPU_ISA, torch
#               ATEN_CPU_CAPABILITY, XLA --xla_cpu_max_isa), and every driver,
#               simdax_peer too, under LD_PRELOAD=cpuid_cap.so with
#               PEERS_CPUID_CAP=avx2 (bench/peers/cpuid_cap.c: CPUID faulting
#               hides AVX-512, AMX, AVX-VNNI and AVX10 from CPUID; ONNX
#               Runtime, OpenVINO and XNNPACK have no ISA knob). The library is
#               built into build/peers/ and checked once then
#               (cpuid_cap_check.c); the script stops if it does not mask.
#               Output in build/peers/avx2/ then. avx2 is the only value: the
#               library caps at AVX2 only, and the knobs have no common
#               spelling for the other simdax ISAs (oneDNN takes AVX512_CORE,
#               not AVX512; scalar has no oneDNN or XLA value).
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
    --isa)
      isa="$2"
      shift 2
      [ "$isa" = avx2 ] || { echo "--isa takes only avx2 (got '$isa')" >&2; exit 2; } ;;
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
# --isa avx2: the CPUID cap of every driver (bench/peers/cpuid_cap.c), built
# with its check, which runs once per build: without a preload, then under
# it, where the capped bits must be clear in the main and a new thread, a
# NULL store must still die of SIGSEGV, and a handler the program installs
# later must still get it. A shim that fails is removed: the next run
# builds and checks it again.
shim=""
if [ "$isa" = avx2 ]; then
  shim=$(realpath -m "$base/cpuid_cap.so")
  check=$base/cpuid_cap_check
  if stale "$shim" "$peers/cpuid_cap.c" || stale "$check" "$peers/cpuid_cap_check.c"; then
    log "building and checking the CPUID cap ($shim)"
    rm -f "$shim" "$check"
    ${CC:-gcc} -O2 -Wall -Wextra -Werror -fPIC -shared "$peers/cpuid_cap.c" -o "$shim.tmp"
    ${CC:-gcc} -O2 -Wall -Wextra -Werror -pthread "$peers/cpuid_cap_check.c" -o "$check"
    shim_fail() {
      rm -f "$shim.tmp" "$check"
      echo "compare_peers: the CPUID cap $peers/cpuid_cap.c FAILED its check: $*" >&2
      exit 1
    }
    "$check" >&2 || shim_fail "cpuid_cap_check failed without the preload"
    cap_env=(env LD_PRELOAD="$shim.tmp" PEERS_CPUID_CAP=avx2)
    "${cap_env[@]}" "$check" --expect-capped >&2 || shim_fail "CPUID still reports the capped bits"
    rc=0
    { "${cap_env[@]}" "$check" --crash >/dev/null 2>&1; } 2>/dev/null || rc=$?
    [ "$rc" = 139 ] || shim_fail "a NULL store under the preload ended with status $rc, not SIGSEGV (139)"
    rc=0
    "${cap_env[@]}" "$check" --chain >/dev/null 2>&1 || rc=$?
    [ "$rc" = 3 ] || shim_fail "a NULL store did not reach the program's own SIGSEGV handler (status $rc)"
    mv "$shim.tmp" "$shim"
    log "CPUID cap checked: AVX-512/AMX/AVX-VNNI/AVX10 bits clear under it, real SIGSEGVs still delivered"
  fi
fi

# --------------------------------------------------------------- data, models
log "input data and ONNX models"
"$py" "$peers/make_data.py" "$base/data"
"$py" "$peers/make_models.py" "$base/data" "$base/models"

# ---------------------------------------------------------------------- run
results="$out/results"
rm -rf "$results"
mkdir -p "$results"
# The ISA caps: the knobs where a peer has one, and the CPUID cap of every
# driver.
caps=()
if [ -n "$isa" ]; then
  caps=(SIMDAX_MAX_ISA="$isa" ONEDNN_MAX_CPU_ISA="${isa^^}" ATEN_CPU_CAPABILITY="$isa"
        XLA_FLAGS="--xla_cpu_max_isa=${isa^^}" LD_PRELOAD="$shim" PEERS_CPUID_CAP="$isa")
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
PEERS_ISA=""
[ -n "$isa" ] && PEERS_ISA="AVX2-only CPU: simdax and every peer saw a CPUID without AVX-512, AMX, \
AVX-VNNI or AVX10 (CPUID faulting, bench/peers/cpuid_cap.c); also SIMDAX_MAX_ISA=$isa and the ISA \
knobs of oneDNN, PyTorch and XLA"
export PEERS_ISA
"$py" "$peers/check_peers.py" "$base/data" "$results" "$out/table.md" "${keep[@]}"
log "done in $(( $(date +%s) - start )) s; table in $out/table.md"
