// Portable Hardmax: first maximum of a group; NaN beats every number.
#include <algorithm>
#include <cmath>
#include <limits>

#include "scalar/scalar_kernels.hpp"

namespace simdax::kernels::scalar {

template <class T>
void argmax(const void* x, size_t n, int64_t base, ArgMax* s) {
    if (s->nan) return;
    double best = s->value;
    int64_t idx = s->index;
    for (size_t i = 0; i < n; ++i) {
        const double v = double(ld<T>(x, ptrdiff_t(i)));
        if (std::isnan(v)) {
            s->nan = 1;
            s->index = base + int64_t(i);
            return;
        }
        if (v > best || idx < 0) {
            best = v;
            idx = base + int64_t(i);
        }
    }
    s->value = best;
    s->index = idx;
}

template <class T>
void hardmax_cols(const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs) {
    using Acc = typename Storage<T>::Acc;
    constexpr size_t kLanes = 64;
    Acc best[kLanes];
    size_t at[kLanes];
    bool nan[kLanes];
    for (size_t l0 = 0; l0 < k; l0 += kLanes) {
        const size_t w = std::min(kLanes, k - l0);
        for (size_t l = 0; l < w; ++l) {
            best[l] = ld<T>(x, ptrdiff_t(l0 + l));
            at[l] = 0;
            nan[l] = std::isnan(best[l]);
        }
        for (size_t j = 1; j < r; ++j) {
            const ptrdiff_t row = ptrdiff_t(j) * xrs + ptrdiff_t(l0);
            for (size_t l = 0; l < w; ++l) {
                const Acc v = ld<T>(x, row + ptrdiff_t(l));
                if (nan[l]) continue;
                if (std::isnan(v) || v > best[l]) {
                    best[l] = v;
                    at[l] = j;
                    nan[l] = std::isnan(v);
                }
            }
        }
        for (size_t j = 0; j < r; ++j) {
            const ptrdiff_t row = ptrdiff_t(j) * yrs + ptrdiff_t(l0);
            for (size_t l = 0; l < w; ++l) st<T>(y, row + ptrdiff_t(l), at[l] == j ? 1 : 0);
        }
    }
}

template <class T>
void hardmax_out(void* y, size_t n, int64_t base, const ArgMax* s) {
    for (size_t i = 0; i < n; ++i) st<T>(y, ptrdiff_t(i), base + int64_t(i) == s->index ? 1 : 0);
}

template <class T>
void hardmax_rows(const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs) {
    for (size_t g = 0; g < rows; ++g) hardmax_cols<T>(row_at<T>(x, g, xrs), row_at<T>(y, g, yrs), n, 1, 1, 1);
}

#define SIMDAX_SCALAR_INSTANTIATE_HARDMAX(T) SIMDAX_HARDMAX_SLOTS(SIMDAX_SLOT_INSTANTIATE, T)
SIMDAX_SCALAR_FOR_EACH_DTYPE(SIMDAX_SCALAR_INSTANTIATE_HARDMAX)

}  // namespace simdax::kernels::scalar
