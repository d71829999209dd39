// Portable LogSoftmax / Softmax passes: online max + sum(exp), then output.
#include <algorithm>
#include <cmath>
#include <limits>

#include "kernel_table.hpp"
#include "scalar/scalar_kernels.hpp"
#include "scalar/scalar_types.hpp"
#include "softmax/softmax_kind.hpp"
#include "softmax/softmax_state.hpp"

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
// is rescaled only when the max grows. A lane whose max is +inf gets a NaN
// sum (exp(inf - inf)).
template <class T>
void cols_reduce(const void* x, size_t r, size_t w, ptrdiff_t xrs, typename Storage<T>::Acc* mx,
                 typename Storage<T>::Acc* sm) {
    using Acc = typename Storage<T>::Acc;
    for (size_t l = 0; l < w; ++l) {
        mx[l] = -std::numeric_limits<Acc>::infinity();
        sm[l] = 0;
    }
    for (size_t j = 0; j < r; ++j) {
        const ptrdiff_t row = ptrdiff_t(j) * xrs;
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
    for (size_t l = 0; l < w; ++l)
        if (std::isinf(mx[l]) && mx[l] > 0) sm[l] = std::numeric_limits<Acc>::quiet_NaN();
}

// y from per-lane max and c = log(sum) (LogSoftmax) or 1/sum (Softmax).
template <class T, SoftmaxKind K, class C>
void cols_write(const void* x, void* y, size_t r, size_t w, ptrdiff_t xrs, ptrdiff_t yrs, const C* mx,
                const C* c) {
    using Acc = typename Storage<T>::Acc;
    for (size_t j = 0; j < r; ++j) {
        const ptrdiff_t xr = ptrdiff_t(j) * xrs, yr = ptrdiff_t(j) * yrs;
        for (size_t l = 0; l < w; ++l) {
            const Acc v = ld<T>(x, xr + ptrdiff_t(l)) - Acc(mx[l]);
            st<T>(y, yr + ptrdiff_t(l), K == SoftmaxKind::log ? v - Acc(c[l]) : std::exp(v) * Acc(c[l]));
        }
    }
}

// stream: a hint for vector stores, none here.
template <class T, SoftmaxKind K>
void softmax_or_log_cols(const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs,
                         bool = false) {
    using Acc = typename Storage<T>::Acc;
    constexpr size_t kLanes = 64;
    Acc mx[kLanes], sm[kLanes];
    for (size_t l0 = 0; l0 < k; l0 += kLanes) {
        const size_t w = std::min(kLanes, k - l0);
        cols_reduce<T>(row_at<T>(x, l0, 1), r, w, xrs, mx, sm);
        for (size_t l = 0; l < w; ++l) sm[l] = K == SoftmaxKind::log ? Acc(std::log(sm[l])) : Acc(1) / sm[l];
        cols_write<T, K>(row_at<T>(x, l0, 1), row_at<T>(y, l0, 1), r, w, xrs, yrs, mx, sm);
    }
}

// Groups of `run` consecutive lanes: each lane reduced as above, then a
// group's lanes folded (softmax_state.hpp).
template <class T, SoftmaxKind K>
void softmax_or_log_cols_states(const void* x, size_t r, size_t k, ptrdiff_t xrs, size_t run,
                                MaxSum* states) {
    using Acc = typename Storage<T>::Acc;
    Acc mx[kMaxLaneRun], sm[kMaxLaneRun];
    double lm[kMaxLaneRun];
    for (size_t g = 0; g < k / run; ++g) {
        cols_reduce<T>(row_at<T>(x, g * run, 1), r, run, xrs, mx, sm);
        for (size_t l = 0; l < run; ++l) lm[l] = double(mx[l]);
        states[g] = fold_maxsum(lm, run, [&](double top) {
            double t = 0;
            for (size_t l = 0; l < run; ++l) t += double(sm[l]) * std::exp(lm[l] - top);
            return t;
        });
        if (K == SoftmaxKind::log) states[g].log_sum = std::log(states[g].sum);
    }
}

template <class T, SoftmaxKind K>
void softmax_or_log_cols_apply(const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs,
                               size_t run, const MaxSum* states) {
    using Acc = typename Storage<T>::Acc;
    Acc mx[kMaxLaneRun], c[kMaxLaneRun];
    for (size_t g = 0; g < k / run; ++g) {
        const MaxSum& s = states[g];
        for (size_t l = 0; l < run; ++l) {
            mx[l] = Acc(s.max);
            c[l] = K == SoftmaxKind::log ? Acc(s.log_sum) : Acc(1.0 / s.sum);
        }
        cols_write<T, K>(row_at<T>(x, g * run, 1), row_at<T>(y, g * run, 1), r, run, xrs, yrs, mx, c);
    }
}

SIMDAX_SOFTMAX_KIND_LANE_SLOTS

template <class T, SoftmaxKind K>
void softmax_or_log_rows(const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs) {
    for (size_t g = 0; g < rows; ++g)
        softmax_or_log_cols<T, K>(row_at<T>(x, g, xrs), row_at<T>(y, g, yrs), n, 1, 1, 1);
}

SIMDAX_SOFTMAX_KIND_COLS_SLOTS
SIMDAX_SOFTMAX_KIND_ROWS_SLOTS

#define SIMDAX_SCALAR_INSTANTIATE_SOFTMAX(T) SIMDAX_SOFTMAX_SLOTS(SIMDAX_SLOT_INSTANTIATE, T)
SIMDAX_SCALAR_FOR_EACH_DTYPE(SIMDAX_SCALAR_INSTANTIATE_SOFTMAX)

}  // namespace simdax::kernels::scalar
