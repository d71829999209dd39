// Hardmax on float16 with native float16 compares (simd/hardmax.hpp over
// H16): twice the lanes of the float path per instruction and no
// conversions. Exact: max, compare and select never round. Include after
// the ISA's native float16 vector header.
#pragma once

#include "simd/f16/f16_kernels.hpp"
#include "hardmax/hardmax_kernels.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

void argmax_f16(const void* x, size_t n, int64_t base_index, ArgMax* state) {
    argmax<H16>(x, n, base_index, state);
}

void hardmax_cols_f16(const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs) {
    // Row numbers are float16 in the vector loop; taller columns go to the
    // base ISA's (float row numbers).
    if (r > kF16ExactRows) return f16_base::hardmax_cols<f16_base::F16>(x, y, r, k, xrs, yrs);
    hardmax_cols<H16>(x, y, r, k, xrs, yrs);
}

void hardmax_rows_f16(const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs) {
    hardmax_rows<H16>(x, y, rows, n, xrs, yrs);
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
