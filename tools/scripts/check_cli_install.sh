#!/usr/bin/env bash
# A default `cmake --install` of a built tree installs the simdax CLI, and
# the installed CLI runs from the prefix with the prefix's libsimdax.so
# (no LD_LIBRARY_PATH, nothing from the build tree).
# Usage: check_cli_install.sh BUILD_DIR BINDIR LIBDIR (the CMAKE_INSTALL_* dirs)
set -euo pipefail
build=$1 bindir=$2 libdir=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/simdax-cli-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp" >"$tmp.log" || { cat "$tmp.log"; exit 1; }
rm -f "$tmp.log"
exe=$tmp/$bindir/simdax
[ -x "$exe" ] || { echo "check_cli_install: no $bindir/simdax after cmake --install" >&2; exit 1; }
loaded=$(ldd "$exe" | awk '/libsimdax\.so/ { print $3 }')
case $(readlink -f "$loaded") in
  "$(readlink -f "$tmp/$libdir")"/*) ;;
  *) ldd "$exe" >&2; echo "check_cli_install: $exe does not load the prefix's libsimdax" >&2; exit 1 ;;
esac
env -u LD_LIBRARY_PATH "$exe" info | grep "isa in use: "
