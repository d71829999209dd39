#!/usr/bin/env bash
# Installs simdax into a temporary prefix and builds the consumers in
# examples/ against that prefix only, four ways — C and C++, each through
# the CMake package (find_package(simdax CONFIG)) and through pkg-config
# (examples/Makefile) — each linked to the shared and to the static library,
# then runs them (they check their results and exit non-zero on a wrong
# answer). A consumer of the shared library must configure through the CMake
# package with libcpuid's pkg-config file out of reach (no libcpuid-dev),
# and asking for the static library then must fail, naming libcpuid. Also
# checks the installed layout, the ABI surface of the
# installed libsimdax.so (check_symbols.sh), the package versions against
# simdax.h, and that no installed text file names the build or source tree.
#
# Usage: tools/scripts/check_install.sh [--build-dir DIR] [--subdirectory] [--keep]
#   --build-dir DIR  install an existing configured and built tree (with
#                    cmake --install --prefix) instead of configuring and
#                    building a fresh one
#   --subdirectory   also build the examples with add_subdirectory(simdax)
#   --keep           keep the temporary directory
# Env: JOBS (parallel jobs, default nproc), SIMDAX_CMAKE_ARGS (extra
#      arguments for configuring simdax).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
build_dir=""
subdirectory=0
keep=0
while [ $# -gt 0 ]; do
  case $1 in
    --build-dir) build_dir=$(cd "$2" && pwd); shift 2 ;;
    --subdirectory) subdirectory=1; shift ;;
    --keep) keep=1; shift ;;
    *) echo "usage: $0 [--build-dir DIR] [--subdirectory] [--keep]" >&2; exit 2 ;;
  esac
done
read -r -a extra_args <<<"${SIMDAX_CMAKE_ARGS:-}"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/simdax-install.XXXXXX")
if [ $keep -eq 0 ]; then trap 'rm -rf "$tmp"' EXIT; else echo "keeping $tmp"; fi
prefix=$tmp/prefix
step() { echo "== $*"; }
die() { echo "check_install: $*" >&2; exit 1; }

# ---------------------------------------------------------------- install
if [ -z "$build_dir" ]; then
  build_dir=$tmp/build
  step "configure and build simdax (library only) in $build_dir"
  cmake -S "$root" -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$prefix" -DSIMDAX_BUILD_TESTS=OFF -DSIMDAX_BUILD_BENCH=OFF \
    -DSIMDAX_BUILD_TOOLS=OFF "${extra_args[@]}" >"$tmp/configure.log" ||
    { cat "$tmp/configure.log"; die "configuring simdax failed"; }
  cmake --build "$build_dir" -j "$jobs"
  step "install into CMAKE_INSTALL_PREFIX=$prefix"
  cmake --install "$build_dir" >"$tmp/install.log"
else
  step "install $build_dir into $prefix (cmake --install --prefix)"
  cmake --install "$build_dir" --prefix "$prefix" >"$tmp/install.log"
fi

# ----------------------------------------------------------------- layout
step "installed layout"
header=$prefix/include/simdax/simdax.h
[ -f "$header" ] || die "missing include/simdax/simdax.h"
[ -f "$prefix/include/simdax/simdax.hpp" ] || die "missing include/simdax/simdax.hpp"
version=$(sed -nE 's/^#define SIMDAX_VERSION_(MAJOR|MINOR|PATCH) +([0-9]+).*/\2/p' "$header" |
          paste -sd.)
major=${version%%.*}
config=$(find "$prefix" -name simdaxConfig.cmake -print -quit)
pcfile=$(find "$prefix" -name simdax.pc -print -quit)
# (simdax-static.pc sits beside it: checked with the layout below.)
[ -n "$config" ] || die "no simdaxConfig.cmake under $prefix"
[ -n "$pcfile" ] || die "no simdax.pc under $prefix"
libdir=$(dirname "$(dirname "$pcfile")")
for f in libsimdax.so "libsimdax.so.$major" "libsimdax.so.$version" libsimdax.a \
         cmake/simdax/simdaxConfigVersion.cmake cmake/simdax/simdaxTargets.cmake \
         cmake/simdax/simdaxStaticTargets.cmake pkgconfig/simdax-static.pc; do
  [ -e "$libdir/$f" ] || die "missing $libdir/$f"
done
[ "$(readlink "$libdir/libsimdax.so")" = "libsimdax.so.$major" ] ||
  die "libsimdax.so does not link to libsimdax.so.$major"
if readelf -d "$libdir/libsimdax.so.$version" | grep -qE 'RPATH|RUNPATH'; then
  die "the installed libsimdax.so has an RPATH/RUNPATH"
fi
bash "$root/tools/scripts/check_symbols.sh" "$libdir/libsimdax.so.$version" "$header"
# No installed text file may point back at the build or source tree.
for tree in "$build_dir" "$root"; do
  if grep -rlF "$tree" "$prefix/include" "$libdir/cmake" "$libdir/pkgconfig"; then
    die "installed files above name $tree"
  fi
done
export PKG_CONFIG_PATH=$libdir/pkgconfig
for pc in simdax simdax-static; do
  [ "$(pkg-config --modversion $pc)" = "$version" ] ||
    die "$pc.pc says $(pkg-config --modversion $pc), simdax.h says $version"
done
pkg-config --static --libs simdax | grep -q -- '-pthread' || die "simdax.pc: no -pthread in Libs.private"
pkg-config --libs simdax-static | grep -qF -- "$libdir/libsimdax.a" ||
  die "simdax-static.pc does not name $libdir/libsimdax.a"
pkg-config --libs simdax-static | grep -q -- '-pthread' || die "simdax-static.pc: no -pthread"
if [ "$(uname -m)" = x86_64 ]; then
  pkg-config --static --libs simdax | grep -q -- '-lcpuid' || die "simdax.pc: no -lcpuid in Libs.private"
  pkg-config --libs simdax-static | grep -q -- '-lcpuid' || die "simdax-static.pc: no -lcpuid"
fi
echo "version $version; prefix $prefix; libdir $libdir"

# --------------------------------------------------------------- consumers
# Each binary must pass its own checks and print nothing on stderr (the
# library never writes to stdout/stderr, also on its error paths).
run_examples() {  # dir, binaries...
  local dir=$1; shift
  for exe in "$@"; do
    "$dir/$exe" 2>"$tmp/stderr" || { cat "$tmp/stderr" >&2; die "$dir/$exe failed"; }
    [ ! -s "$tmp/stderr" ] || { cat "$tmp/stderr" >&2; die "$dir/$exe wrote to stderr"; }
  done
}
# (Output captured first: under pipefail, grep -q closing the pipe early
# would fail the producer with SIGPIPE.)
check_shared() {  # binary: resolves libsimdax from the prefix
  local deps
  deps=$(ldd "$1")
  grep -q "libsimdax.so.$major => $libdir/" <<<"$deps" || die "$1 does not load $libdir/libsimdax.so.$major"
}
check_static() {  # binary: no libsimdax.so needed
  local dynamic
  dynamic=$(readelf -d "$1")
  if grep -q 'libsimdax' <<<"$dynamic"; then die "$1 needs libsimdax.so"; fi
}

step "C and C++ through find_package(simdax CONFIG)"
cmake -S "$root/examples" -B "$tmp/ex-cmake" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON \
  -DCMAKE_FIND_PACKAGE_NO_SYSTEM_PACKAGE_REGISTRY=ON >"$tmp/ex-configure.log" ||
  { cat "$tmp/ex-configure.log"; die "configuring the examples failed"; }
found=$(sed -n 's/^simdax_DIR:PATH=//p' "$tmp/ex-cmake/CMakeCache.txt")
[ "$found" = "$(dirname "$config")" ] || die "find_package used $found, not $(dirname "$config")"
cmake --build "$tmp/ex-cmake" -j "$jobs"
check_shared "$tmp/ex-cmake/example_c"
check_shared "$tmp/ex-cmake/example_cpp"
check_static "$tmp/ex-cmake/example_c_static"
check_static "$tmp/ex-cmake/example_cpp_static"
run_examples "$tmp/ex-cmake" example_c example_cpp example_c_static example_cpp_static

# libcpuid-dev's only trace for CMake is libcpuid.pc (Debian ships no CMake
# package for it); an empty pkg-config search path stands for a machine
# without it. The shared library itself still loads libcpuid's runtime
# library, which the linker and loader find in the system paths.
step "find_package(simdax) for the shared library without libcpuid's development files"
no_pc=$tmp/no-pkgconfig
mkdir -p "$no_pc"
without_libcpuid_dev() { PKG_CONFIG_PATH="" PKG_CONFIG_LIBDIR="$no_pc" "$@"; }
if without_libcpuid_dev pkg-config --exists libcpuid 2>/dev/null; then
  die "pkg-config still finds libcpuid with PKG_CONFIG_LIBDIR=$no_pc"
fi
without_libcpuid_dev cmake -S "$root/examples" -B "$tmp/ex-shared-only" "${generator[@]}" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" -DSIMDAX_EXAMPLES_STATIC=OFF \
  -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON -DCMAKE_FIND_PACKAGE_NO_SYSTEM_PACKAGE_REGISTRY=ON \
  >"$tmp/ex-shared-only.log" 2>&1 ||
  { cat "$tmp/ex-shared-only.log"; die "a consumer of the shared library needs libcpuid's development files"; }
without_libcpuid_dev cmake --build "$tmp/ex-shared-only" -j "$jobs"
check_shared "$tmp/ex-shared-only/example_c"
check_shared "$tmp/ex-shared-only/example_cpp"
run_examples "$tmp/ex-shared-only" example_c example_cpp
if [ "$(uname -m)" = x86_64 ]; then
  if without_libcpuid_dev cmake -S "$root/examples" -B "$tmp/ex-static-nocpuid" "${generator[@]}" \
       -DCMAKE_PREFIX_PATH="$prefix" -DSIMDAX_EXAMPLES_STATIC=ON >"$tmp/ex-static-nocpuid.log" 2>&1; then
    die "find_package(simdax COMPONENTS static) succeeded without libcpuid"
  fi
  grep -q "simdax::simdax_static needs libcpuid" "$tmp/ex-static-nocpuid.log" ||
    { cat "$tmp/ex-static-nocpuid.log"; die "COMPONENTS static without libcpuid: no message naming libcpuid"; }
fi

step "C and C++ through pkg-config (examples/Makefile)"
for link in shared static; do
  mkdir -p "$tmp/ex-pc-$link"
  make -s -C "$root/examples" O="$tmp/ex-pc-$link" LINK=$link
  check_$link "$tmp/ex-pc-$link/example_c"
  check_$link "$tmp/ex-pc-$link/example_cpp"
  run_examples "$tmp/ex-pc-$link" example_c example_cpp
done

if [ $subdirectory -eq 1 ]; then
  step "C and C++ through add_subdirectory(simdax)"
  cmake -S "$root/examples" -B "$tmp/ex-subdir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DSIMDAX_SOURCE_DIR="$root" "${extra_args[@]}" >"$tmp/ex-subdir.log" ||
    { cat "$tmp/ex-subdir.log"; die "configuring the examples with add_subdirectory failed"; }
  cmake --build "$tmp/ex-subdir" -j "$jobs"
  run_examples "$tmp/ex-subdir" example_c example_cpp example_c_static example_cpp_static
fi

echo "check_install: all consumers built against $prefix and passed"
