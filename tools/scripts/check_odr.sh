#!/usr/bin/env bash
# ODR/COMDAT guard (docs/dependencies.md): a weak symbol defined in two ISA kernel
# object sets could make the linker keep, say, the AVX-512 copy for every
# caller. Fails if any weak/unique symbol appears in more than one ISA.
# Usage: check_odr.sh BUILD_DIR [NM]
set -euo pipefail
build=$1
nm=${2:-nm}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
found=0
for dir in "$build"/kernels/CMakeFiles/simdax_kernels_*.dir; do
  isa=${dir##*simdax_kernels_}
  isa=${isa%.dir}
  find "$dir" -name '*.o' -print0 | xargs -0 -r "$nm" -C --defined-only 2>/dev/null |
    awk '$2 ~ /^[WVu]$/ { $1 = ""; $2 = ""; sub(/^  /, ""); print }' | sort -u > "$tmp/$isa"
  found=$((found + 1))
done
[ "$found" -gt 0 ] || { echo "no kernel objects under $build/kernels"; exit 1; }
# Every external symbol an ISA's objects define lies in its own namespace
# simdax::kernels::<isa> (mangled _ZN[cv/ref qualifiers]6simdax7kernels<len><isa>...): nothing
# compiled with that ISA's flags can stand in for a symbol baseline code uses.
# (ASan adds __odr_asan.<symbol> indicators: judged by the symbol they name.)
for dir in "$build"/kernels/CMakeFiles/simdax_kernels_*.dir; do
  isa=${dir##*simdax_kernels_}
  isa=${isa%.dir}
  prefix="6simdax7kernels${#isa}${isa}"
  stray=$(find "$dir" -name '*.o' -print0 | xargs -0 -r "$nm" -g --defined-only 2>/dev/null |
    awk 'NF == 3 { n = $3; sub(/^__odr_asan\./, "", n); print n }' | grep -v -E "^_Z[A-Z]*N[rVKRO]*${prefix}|^DW\.ref\." || true)
  if [ -n "$stray" ]; then
    echo "symbols outside simdax::kernels::$isa in its kernel objects:"
    echo "$stray"
    exit 1
  fi
done
# DW.ref.__gxx_personality_v0 is the compiler's shared handle to the C++
# personality routine (baseline code, identical everywhere): not ISA code.
dups=$(cat "$tmp"/* | sort | uniq -d | grep -v '^DW\.ref\.' || true)
if [ -n "$dups" ]; then
  echo "weak symbols defined by more than one ISA's kernels:"
  echo "$dups"
  exit 1
fi
echo "odr check: $found ISA object sets, no shared weak symbols"
