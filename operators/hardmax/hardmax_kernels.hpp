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
    for (size_t r = 0; r < rows; ++r) {
        const T* xr = x + ptrdiff_t(r) * xrs;
        T* yr = y + ptrdiff_t(r) * yrs;
        const bool fused = static_cast<const void*>(xr) != static_cast<void*>(yr);
        T* yz = fused ? yr : nullptr;  // zeroed while the row is read
        size_t at;
        if constexpr (kKeys16<T>)
            at = row_argmax_keys(xr, n, yz);
        else
            at = row_argmax(xr, n, yz);
        if (!fused) std::memset(static_cast<void*>(yr), 0, n * sizeof(T));
        put_one(yr + at);
    }
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
