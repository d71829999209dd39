// Portable LogSoftmax / Softmax passes: online max + sum(exp), then output.
#include <algorithm>
#include <cmath>
#include <limits>

#include "kernel_table.hpp"
#include "scalar_kernels.hpp"
#include "scalar_types.hpp"
#include "softmax_kind.hpp"
#include "softmax_state.hpp"

namespace simdax::kernels::scalar {
namespace {

constexpr size_t kBlock = 2048;  // a block is re-read from L1 for the sum

}  // namespace

template <class T>
void maxsum(const void* x, size_t n, MaxSum* state) {
    using Acc = typename Storage<T>::Acc;
    for (size_t b = 0; b < n; b += kBlock) {
        const size_t e = std::min(n, b + kBlock);
        Acc cm = -std::numeric_limits<Acc>::infinity();
        for (size_t i = b; i < e; ++i) cm = std::max(cm, ld<T>(x, i));
        const Acc shift = std::isinf(cm) && cm < 0 ? Acc(0) : cm;
        Acc cs = 0;
        for (size_t i = b; i < e; ++i) cs += std::exp(ld<T>(x, i) - shift);
        combine_maxsum(state, double(cm), double(cs));
    }
}

template <class T>
void log_softmax_out(const void* x, void* y, size_t n, const MaxSum* s) {
    using Acc = typename Storage<T>::Acc;
    const Acc m = Acc(s->max), ls = Acc(s->log_sum);
    for (size_t i = 0; i < n; ++i) st<T>(y, i, (ld<T>(x, i) - m) - ls);
}

template <class T>
void softmax_out(const void* x, void* y, size_t n, const MaxSum* s) {
    using Acc = typename Storage<T>::Acc;
    const Acc m = Acc(s->max), inv = Acc(1.0 / s->sum);
    for (size_t i = 0; i < n; ++i) st<T>(y, i, std::exp(ld<T>(x, i) - m) * inv);
}

// Columns: lane l of row j is x[j*xrs + l]. Per-lane online max/sum; the sum
// is rescaled only when the max grows.
template <class T, SoftmaxKind K>
void softmax_or_log_cols(const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs) {
    constexpr bool kLog = K == SoftmaxKind::log;
    using Acc = typename Storage<T>::Acc;
    constexpr size_t kLanes = 64;
    Acc mx[kLanes], sm[kLanes];
    for (size_t l0 = 0; l0 < k; l0 += kLanes) {
        const size_t w = std::min(kLanes, k - l0);
        for (size_t l = 0; l < w; ++l) {
            mx[l] = -std::numeric_limits<Acc>::infinity();
            sm[l] = 0;
        }
        for (size_t j = 0; j < r; ++j) {
            const ptrdiff_t row = ptrdiff_t(j) * xrs + ptrdiff_t(l0);
            for (size_t l = 0; l < w; ++l) {
                const Acc v = ld<T>(x, row + ptrdiff_t(l));
                if (v > mx[l]) {
                    sm[l] = sm[l] * std::exp(mx[l] - v) + Acc(1);
                    mx[l] = v;
                } else if (!(std::isinf(v) && v < 0)) {
                    sm[l] += std::exp(v - mx[l]);  // NaN stays NaN
                }
            }
        }
        for (size_t l = 0; l < w; ++l) {
            if (std::isinf(mx[l]) && mx[l] > 0) sm[l] = std::numeric_limits<Acc>::quiet_NaN();
            sm[l] = kLog ? Acc(std::log(sm[l])) : Acc(1) / sm[l];
        }
        for (size_t j = 0; j < r; ++j) {
            const ptrdiff_t xr = ptrdiff_t(j) * xrs + ptrdiff_t(l0);
            const ptrdiff_t yr = ptrdiff_t(j) * yrs + ptrdiff_t(l0);
            for (size_t l = 0; l < w; ++l) {
                const Acc v = ld<T>(x, xr + ptrdiff_t(l)) - mx[l];
                st<T>(y, yr + ptrdiff_t(l), kLog ? v - sm[l] : std::exp(v) * sm[l]);
            }
        }
    }
}

template <class T, SoftmaxKind K>
void softmax_or_log_rows(const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs) {
    for (size_t g = 0; g < rows; ++g)
        softmax_or_log_cols<T, K>(row_at<T>(x, g, xrs), row_at<T>(y, g, yrs), n, 1, 1, 1);
}

SIMDAX_SOFTMAX_KIND_SLOTS(cols)
SIMDAX_SOFTMAX_KIND_SLOTS(rows)

#define SIMDAX_SCALAR_INSTANTIATE_SOFTMAX(T) SIMDAX_SOFTMAX_SLOTS(SIMDAX_SLOT_INSTANTIATE, T)
SIMDAX_SCALAR_FOR_EACH_DTYPE(SIMDAX_SCALAR_INSTANTIATE_SOFTMAX)

}  // namespace simdax::kernels::scalar
