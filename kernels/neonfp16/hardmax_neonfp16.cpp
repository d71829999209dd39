// Hardmax on float16 with native float16 compares (kernels/simd/hardmax.hpp
// over H16): 8 lanes per instruction and no conversions. Exact: max,
// compare and select never round.
#include "neonfp16/neonfp16_kernels.hpp"
#include "simd/vec_neon_fp16.hpp"
#include "simd/hardmax.hpp"

namespace simdax::kernels::neonfp16 {

void argmax_f16(const void* x, size_t n, int64_t base_index, ArgMax* state) {
    argmax<H16>(x, n, base_index, state);
}

void hardmax_cols_f16(const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs) {
    // Row numbers are float16 in the vector loop; taller columns use neon's
    // (float row numbers).
    if (r > kF16ExactRows) return neon::hardmax_cols<neon::F16>(x, y, r, k, xrs, yrs);
    hardmax_cols<H16>(x, y, r, k, xrs, yrs);
}

void hardmax_rows_f16(const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs) {
    hardmax_rows<H16>(x, y, rows, n, xrs, yrs);
}

}  // namespace simdax::kernels::neonfp16
