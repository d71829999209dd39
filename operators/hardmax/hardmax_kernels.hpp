// The Hardmax kernels of one ISA (operators/hardmax/hardmax_slots.hpp):
// float16 and bfloat16 storage compare their bits (hardmax_keys16.hpp),
// every other type its values (hardmax_simd.hpp).
#pragma once

#include "hardmax/hardmax_keys16.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

template <class T>
void hardmax_rows(const void* xv, void* yv, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs) {
    const VecScope scope;
    const T* x = static_cast<const T*>(xv);
    T* y = static_cast<T*>(yv);
    if constexpr (kKeys16<T>)
        hardmax_rows_keys(x, y, rows, n, xrs, yrs);
    else
        hardmax_rows_values(x, y, rows, n, xrs, yrs);
}

template <class T>
void hardmax_cols(const void* xv, void* yv, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs) {
    const VecScope scope;
    const T* x = static_cast<const T*>(xv);
    T* y = static_cast<T*>(yv);
    if constexpr (kKeys16<T>) {
        if (!cols_by_rows(xrs, yrs, sizeof(T)))
            return hardmax_cols_keys<T, kHardmaxColsBlock>(x, y, r, k, xrs, yrs);
    }
    hardmax_cols_values(x, y, r, k, xrs, yrs);
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
