// H16: float16 storage whose kernels compute *in* float16 (VecOf<H16> = VH,
// the native float16 vector of vec_neon_fp16.hpp or vec_avx512_fp16.hpp),
// unlike F16, which computes in float. Only kernels whose result does not
// depend on float16 rounding use it: comparisons, max, selection (Hardmax,
// ReLU). Anything that rounds (a product, a sum, exp) stays on the float
// path, where one rounding on store meets the 1-ulp bound of docs/spec.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "simd/dtypes.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

struct H16 {
    uint16_t bits;
};

inline void put_one(H16* p) { p->bits = 0x3c00; }

// Row numbers ride in float16 in hardmax_cols: exact up to 2^11.
constexpr size_t kF16ExactRows = size_t(1) << 11;

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
