// Rows a fixed stride apart, seen through the 4 KiB period of the L1 set
// index and of the address bits a load is checked against pending stores
// by. Shared by the cols kernels (how they walk) and the planner (how many
// lanes a cols unit gets).
#pragma once

#include <cstddef>

namespace simdax::kernels {

// Internal linkage: the kernels' copies are built with their ISA's flags and
// must not be merged with each other's or the planner's.
namespace {

// Distinct offsets modulo 4 KiB of rows row_bytes apart.
inline size_t row_offsets_4k(ptrdiff_t row_bytes) {
    const size_t a = size_t(row_bytes < 0 ? -row_bytes : row_bytes) % 4096;
    return a == 0 ? 1 : 4096 / (a & (~a + 1));
}

// Rows that share so few offsets that a walk down them thrashes their L1
// sets (8 ways) and loads each row where the rows above were just stored.
inline bool rows_alias_4k(ptrdiff_t row_bytes) { return row_offsets_4k(row_bytes) < 8; }

// Whether a cols kernel whose rows are xrs and yrs elements of esize bytes
// apart writes by rows (a chunk of lanes a whole row at a time) instead of
// down each lane block: where either stride's rows share few offsets.
inline bool cols_by_rows(ptrdiff_t xrs, ptrdiff_t yrs, size_t esize) {
    const ptrdiff_t e = ptrdiff_t(esize);
    return rows_alias_4k(xrs * e) || rows_alias_4k(yrs * e);
}

// Bytes of a row a cols kernel writes at once by rows (a cols unit spans at
// least this much).
constexpr size_t kByRowsBytes = 4096;

}  // namespace
}  // namespace simdax::kernels
