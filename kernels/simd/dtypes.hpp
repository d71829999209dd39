// Storage types of the x86 kernels. float16 and bfloat16 travel as uint16 bit
// patterns; distinct wrapper types let the vector traits overload load/store
// on them. Everything here lives in the ISA's own namespace (DEPS.md §2.5).
#pragma once

#include <cstddef>
#include <cstdint>

#ifndef SIMDAX_KERNEL_ISA
#error "x86 kernel headers are for kernel TUs only (SIMDAX_KERNEL_ISA=<isa>)"
#endif

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

struct F16 {
    uint16_t bits;
};
struct BF16 {
    uint16_t bits;
};

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
