// Storage types of the SIMD kernels. float16 and bfloat16 travel as uint16 bit
// patterns; distinct wrapper types let the vector traits overload load/store
// on them. Everything here lives in the ISA's own namespace (docs/dependencies.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

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

// A bfloat16 output of an operator whose bound next to zero is float32's
// (LogSoftmax, Softmax, MVN: an absolute 1e-6 or more, docs/spec.md
// "Accuracy"), so a subnormal result (below 2^-126) may be written as zero:
// stores through it skip the fixup of AVX512-BF16's conversion, which
// reads subnormal inputs as 0. Conversions (identity, linear) keep BF16.
struct BF16Result : BF16 {};

template <class T>
struct ResultOf {
    using type = std::conditional_t<std::is_same_v<T, BF16>, BF16Result, T>;
};
// The output pointer of such an operator: y as stores should see it.
template <class T>
inline typename ResultOf<T>::type* result_ptr(T* y) {
    return reinterpret_cast<typename ResultOf<T>::type*>(y);
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
