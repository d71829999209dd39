// Storage types of the SIMD kernels. float16 and bfloat16 travel as uint16 bit
// patterns; distinct wrapper types let the vector traits overload load/store
// on them. Everything here lives in the ISA's own namespace (docs/dependencies.md).
#pragma once

#include <cstddef>
#include <cstdint>

// For the small vector helpers of hot loops (the exp core, the pipeline
// stages): GCC's -O2 inliner otherwise leaves some of them out of line in the
// AVX2 build, a call per vector.
#define SIMDAX_INLINE inline __attribute__((always_inline))
// Fully unrolls the loops over the vectors of a lane block, so that their
// per-vector state stays in registers.
#define SIMDAX_UNROLL _Pragma("GCC unroll 16")

#ifndef SIMDAX_KERNEL_ISA
#error "SIMD kernel headers are for kernel TUs only (SIMDAX_KERNEL_ISA=<isa>)"
#endif

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

struct F16 {
    uint16_t bits;
};
struct BF16 {
    uint16_t bits;
};

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
