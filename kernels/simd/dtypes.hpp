// Storage types of the SIMD kernels. float16 and bfloat16 travel as uint16 bit
// patterns; distinct wrapper types let the vector traits overload load/store
// on them. Everything here lives in the ISA's own namespace (docs/dependencies.md).
#pragma once

#include <cstddef>
#include <cstdint>

#include "force_inline.hpp"

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
