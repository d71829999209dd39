// The contract between the planner (baseline code) and the per-ISA kernels.
//
// A kernel works on one dtype and one contiguous stretch of memory ("chunk"
// primitives) or on a block of contiguous lanes walked down a strided reduced
// axis ("cols" kernels). The planner turns every shape, stride and axis set
// into calls of these, so an ISA only has to make these fast.
//
// Every ISA provides a `const IsaKernels` table; an entry left nullptr is
// inherited from the parent ISA (dispatch/isa/tables.cpp). Every composed table
// is complete: each slot of every dtype is filled.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernel_slots.hpp"
#include "kernel_types.hpp"

namespace simdax {

// Kernels for one dtype, one member per slot of kernel_slots.hpp.
#define SIMDAX_SLOT_MEMBER(A, name, params) void(*name) params = nullptr;
struct DtypeKernels {
    SIMDAX_KERNEL_SLOTS(SIMDAX_SLOT_MEMBER, _)
};
#undef SIMDAX_SLOT_MEMBER

// What the kernels of an ISA need to know of the CPU beyond its ISA
// (dispatch/isa/cpu_features.cpp decodes it).
struct CpuFacts {
    // map() (kernels/simd/map.hpp) spreads its non-temporal stores over four
    // pages at once: true on Intel, where that covers more memory latency;
    // AMD cores keep fewer write-combining streams and lose by it.
    bool interleave_streams;
    // MVN's, LayerNorm's and RMSNorm's streamed rows of kCarryRowBytes and
    // more carry the next row's first pass in their output loops
    // (mvn/simd/rows.hpp): true on Intel, where the next row's loads then
    // overlap this row's non-temporal stores; on AMD the rows took up to
    // twice as long carried as apart.
    bool carry_row_passes;
    // AVX512-BF16's VCVTNEPS2BF16 may be used (the avx512 level does not
    // imply it).
    bool avx512bf16;
};

struct IsaKernels {
    DtypeKernels dt[kDTypeCount];  // indexed by DType
    // The ISA's own copy of the facts its kernels read, or nullptr when they
    // read none. Dispatch fills it once, when it composes the table, before
    // any kernel of the ISA can be reached.
    CpuFacts* facts = nullptr;
};

}  // namespace simdax
