// The read floor: one pass that loads every byte of a buffer once and
// writes nothing, at the widest vector width this CPU has. The table divides
// an op's time by it ("x read"): how far a reduction is from reading its
// input once.
#pragma once

#include <cstddef>
#include <cstdint>

namespace simdax_bench {

// Sum of the buffer as 64-bit words (plus its tail bytes). The value means
// nothing; returning it keeps the loads from being optimized away.
uint64_t read_pass(const void* data, size_t bytes);

// "avx512", "avx2" or "portable": the loop read_pass runs on this CPU.
const char* read_pass_kind();

}  // namespace simdax_bench
