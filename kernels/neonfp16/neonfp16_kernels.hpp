// The neonfp16 kernels (float16 only; every other entry is neon's), and the
// neon kernels they hand over to when native float16 does not fit.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernel_table.hpp"

namespace simdax::kernels {

namespace neon {
struct F16;
template <class T>
void activation(const void* x, void* y, size_t n, const ActParams* act);
template <class T>
void hardmax_cols(const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs);
}  // namespace neon

namespace neonfp16 {
void argmax_f16(const void* x, size_t n, int64_t base_index, ArgMax* state);
void hardmax_cols_f16(const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs);
void hardmax_rows_f16(const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs);
void activation_f16(const void* x, void* y, size_t n, const ActParams* act);
}  // namespace neonfp16

}  // namespace simdax::kernels
