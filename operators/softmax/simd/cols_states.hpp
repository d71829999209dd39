// The two halves of the cols walk (cols.hpp) for groups of `run` consecutive
// lanes in every row (LogSoftmax [64,256,64] over axes {0,2}: 256 groups of
// 64 lanes, 64 rows). cols_states reduces each lane as the cols walk does
// and folds a group's lanes into its state (softmax_state.hpp, fold_maxsum;
// LogSoftmax: log(sum) too, once per group); cols_apply writes every lane
// from its group's state, a row at a time.
#pragma once

#include <cmath>

#include "simd/exp_f64.hpp"
#include "softmax/simd/cols.hpp"
#include "softmax/softmax_state.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

// Vectors per lane block: a whole row of a unit at once, so that the walk
// down strided rows reads each row contiguously.
constexpr int kLaneVectors = 32;

// Lanes [0, n) of w to p.
template <class V>
SIMDAX_INLINE void store_lanes(double* p, const Wide<V>& w, size_t n) {
    SIMDAX_UNROLL for (int h = 0; h < Wide<V>::H; ++h) {
        const size_t at = size_t(h) * VD::N;
        if (n > at) VD::storen(p + at, w.h[h], n - at);
    }
}
// sum over i < n of s[i] * exp(m[i] - top), vectorised.
inline double scaled_total(const double* m, const double* s, size_t n, double top) {
    VD::R t = VD::zero();
    const VD::R nt = VD::set1(-top);
    for (size_t i = 0; i < n; i += VD::N) {
        const VD::R mi = VD::loadn(m + i, n - i, VD::set1(top)), si = VD::loadn(s + i, n - i, VD::zero());
        t = VD::fma(si, exp_f64(VD::add(mi, nt)), t);
    }
    return VD::hsum(t);
}

template <class T, SoftmaxKind K>
void softmax_or_log_cols_states(const void* xv, size_t r, size_t k, ptrdiff_t xrs, size_t run,
                                MaxSum* states) {
    const VecScope scope;
    using V = Vec<T>;
    const T* x = static_cast<const T*>(xv);
    // Lanes of whole groups whose states are folded together.
    constexpr size_t kChunk = kMaxLaneRun;
    const size_t per = run * (kChunk / run);
    double lm[kChunk], ls[kChunk];
    for (size_t c0 = 0; c0 < k; c0 += per) {
        const size_t kc = k - c0 < per ? k - c0 : per;
        for_lane_blocks<V, kLaneVectors>(kc, [&](auto nv, auto partial, size_t l, size_t tail) {
            constexpr int NV = decltype(nv)::value;
            typename V::R mx[NV];
            Wide<V> sm[NV];
            cols_block_reduce<T, K, NV, decltype(partial)::value>(
                x + c0 + l, r, tail, xrs, col_prefetch<V, kLaneVectors>(kc, l, NV, sizeof(T)), mx, sm);
            SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
                const size_t at = l + size_t(u) * V::N, n = u == NV - 1 ? tail : V::N;
                store_lanes<V>(lm + at, Wide<V>::from(mx[u]), n);
                store_lanes<V>(ls + at, sm[u], n);
            }
        });
        for (size_t g = 0; g < kc / run; ++g) {
            const double* gm = lm + g * run;
            const double* gs = ls + g * run;
            MaxSum& s = states[c0 / run + g];
            s = fold_maxsum(gm, run, [&](double top) { return scaled_total(gm, gs, run, top); });
            if (K == SoftmaxKind::log) s.log_sum = std::log(s.sum);
        }
    }
}

// Every lane gets its group's -max and log(sum) or 1/sum; written a row of
// kByRowsBytes at a time (cols_write_by_rows), as a memcpy walks.
template <class T, SoftmaxKind K>
void softmax_or_log_cols_apply(const void* xv, void* yv, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs,
                               size_t run, const MaxSum* states) {
    const VecScope scope;
    using E = typename Vec<T>::E;
    const T* x = static_cast<const T*>(xv);
    T* y = static_cast<T*>(yv);
    constexpr size_t kChunk = kByRowsBytes / sizeof(T);
    alignas(64) E nme[kChunk], ce[kChunk];
    for_lane_chunks(k, kChunk, [&](size_t c0, size_t kc) {
        for (size_t i = 0; i < kc; ++i) {
            const MaxSum& s = states[(c0 + i) / run];
            nme[i] = -E(s.max);
            ce[i] = K == SoftmaxKind::log ? E(s.log_sum) : E(1.0 / s.sum);
        }
        cols_write_by_rows<T, K>(x + c0, y + c0, r, kc, xrs, yrs, nme, ce, false);
    });
}

SIMDAX_SOFTMAX_KIND_LANE_SLOTS

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
