#!/usr/bin/env bash
# Checks the ABI surface of the shared library:
#  - `nm -D --defined-only` lists exactly the functions simdax.h declares
#    with SIMDAX_API (as code symbols, unversioned), nothing more or less;
#  - the SONAME is libsimdax.so.<SIMDAX_VERSION_MAJOR>;
#  - the library imports no printing or process-ending function (it never
#    writes to stdout/stderr and never exits or aborts; errors go through
#    the status, simdax_last_error() and the log callback).
# Usage: check_symbols.sh LIBSIMDAX_SO [SIMDAX_H]
# Env: NM, READELF (default nm, readelf; set them for a cross toolchain).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
lib=${1:?usage: check_symbols.sh LIBSIMDAX_SO [SIMDAX_H]}
header=${2:-$root/include/simdax/simdax.h}
nm=${NM:-nm}
readelf=${READELF:-readelf}
[ -f "$lib" ] || { echo "check_symbols: no such file: $lib" >&2; exit 1; }
[ -f "$header" ] || { echo "check_symbols: no such file: $header" >&2; exit 1; }
# simdax.h and the parts beside it (simdax_*.h) that it includes.
headers=("$header" "$(dirname "$header")"/simdax_*.h)

status=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Declared: every "SIMDAX_API <type> simdax_name(" in the headers.
cat "${headers[@]}" | grep -oE 'SIMDAX_API[^(;]*[^A-Za-z0-9_]simdax_[a-z0-9_]+[[:space:]]*\(' |
  grep -oE 'simdax_[a-z0-9_]+[[:space:]]*\($' | tr -d '( \t' | sort -u >"$tmp/declared"
if [ ! -s "$tmp/declared" ]; then
  echo "check_symbols: found no SIMDAX_API declarations in $header" >&2
  exit 1
fi

# Exported: every defined dynamic symbol, with its type.
"$nm" -D --defined-only "$lib" | awk 'NF >= 2 { print $(NF-1), $NF }' >"$tmp/nm"
awk '{ print $2 }' "$tmp/nm" | sort -u >"$tmp/exported"

extra=$(comm -13 "$tmp/declared" "$tmp/exported")
missing=$(comm -23 "$tmp/declared" "$tmp/exported")
not_code=$(awk '$1 != "T" { print }' "$tmp/nm")
if [ -n "$extra" ]; then
  echo "check_symbols: exported but not declared with SIMDAX_API in simdax.h:" >&2
  echo "$extra" | sed 's/^/  /' >&2
  status=1
fi
if [ -n "$missing" ]; then
  echo "check_symbols: declared in simdax.h but not exported:" >&2
  echo "$missing" | sed 's/^/  /' >&2
  status=1
fi
if [ -n "$not_code" ]; then
  echo "check_symbols: exported symbols that are not plain code symbols (type T):" >&2
  echo "$not_code" | sed 's/^/  /' >&2
  status=1
fi

# Imports the library must not have.
forbidden='printf fprintf vprintf vfprintf dprintf puts fputs putchar fputc putc fwrite perror
  abort exit _exit _Exit quick_exit stdout stderr __assert_fail
  _ZSt4cout _ZSt4cerr _ZSt4clog _ZSt5wcout _ZSt5wcerr _ZSt5wclog'
"$nm" -D --undefined-only "$lib" | awk '{ print $NF }' | sed 's/@.*//' | sort -u >"$tmp/imports"
printf '%s\n' $forbidden | sort -u >"$tmp/forbidden"
bad_imports=$(comm -12 "$tmp/imports" "$tmp/forbidden")
if [ -n "$bad_imports" ]; then
  echo "check_symbols: the library imports printing/exiting functions:" >&2
  echo "$bad_imports" | sed 's/^/  /' >&2
  status=1
fi

major=$(sed -nE 's/^#define SIMDAX_VERSION_MAJOR +([0-9]+).*/\1/p' "$header")
soname=$("$readelf" -d "$lib" | sed -nE 's/.*\(SONAME\).*\[(.*)\].*/\1/p')
if [ "$soname" != "libsimdax.so.$major" ]; then
  echo "check_symbols: SONAME is '$soname', expected 'libsimdax.so.$major'" >&2
  status=1
fi

if [ $status -eq 0 ]; then
  echo "check_symbols: $(wc -l <"$tmp/exported") symbols = the SIMDAX_API functions of simdax.h;" \
    "SONAME $soname; no printing/exiting imports"
fi
exit $status
