// LogSoftmax / Softmax over columns: lane l of row j is x[j*xrs + l], and
// every lane is its own group of r elements. Lanes are vectorised (see
// lane_blocks.hpp); rows are walked in blocks of kColRows: the block max,
// then the block's sum of exp re-read from L1, folded into per-lane sums
// held in double (a float running sum over many rows would drift). Then one
// output pass. Special values as the chunk passes (blocks.hpp).
#pragma once

#include "simd/lane_blocks.hpp"
#include "simd/softmax/blocks.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

constexpr size_t kColRows = 64;

template <class T, SoftmaxKind K, int NV, bool PARTIAL>
void softmax_cols_block(const T* x, T* y, size_t r, size_t tail, ptrdiff_t xrs, ptrdiff_t yrs,
                        const ColPrefetch& pf) {
    constexpr bool kLog = K == SoftmaxKind::log;
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    using W = Wide<V>;
    using MX = SmxMath<V>;
    const R ninf = V::set1(E(-__builtin_inf())), one = V::set1(E(1)), zero = V::zero();
    const size_t bytes = (size_t(NV - 1) * V::N + tail) * sizeof(T);
    R mx[NV];
    W sum[NV];
    SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
        mx[u] = ninf;
        sum[u] = wsplat<V>(0.0);
    }
    for (size_t j0 = 0; j0 < r; j0 += kColRows) {
        const size_t j1 = r - j0 < kColRows ? r : j0 + kColRows;
        R bm[NV], nh[NV], bs[NV];
        SIMDAX_UNROLL for (int u = 0; u < NV; ++u) bm[u] = ninf;
        for (size_t j = j0; j < j1; ++j) {
            const T* row = x + ptrdiff_t(j) * xrs;
            if (pf.ahead && j + kColPrefetch < r) prefetch_row(row + ptrdiff_t(kColPrefetch) * xrs, bytes, false);
            if (pf.next_bytes && j0 == 0) prefetch_row(row + pf.next, pf.next_bytes, false);
            SIMDAX_UNROLL for (int u = 0; u < NV; ++u) bm[u] = V::max(bm[u], ld_lane<NV, PARTIAL>(row, u, tail, ninf));
        }
        W fo[NV];
        SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
            const R nm = V::max(mx[u], bm[u]);  // a NaN block max survives (second operand)
            fo[u] = W::from(V::blend(V::eq(mx[u], nm), MX::template ex<false, true>(mx[u], V::sub(zero, nm)), one));
            nh[u] = V::sub(zero, V::blend(V::eq(nm, ninf), nm, zero));
            mx[u] = nm;
            bs[u] = zero;
        }
        for (size_t j = j0; j < j1; ++j) {
            const T* row = x + ptrdiff_t(j) * xrs;
            SIMDAX_UNROLL for (int u = 0; u < NV; ++u)
                bs[u] = V::add(bs[u], MX::template ex<false, false, kSumDeg<T, K>>(ld_lane<NV, PARTIAL>(row, u, tail, ninf), nh[u]));
        }
        SIMDAX_UNROLL for (int u = 0; u < NV; ++u)
            sum[u] = wmap<V>(wmap<V>(sum[u], fo[u], [](VD::R a, VD::R b) { return VD::mul(a, b); }),
                             W::from(bs[u]), [](VD::R a, VD::R b) { return VD::add(a, b); });
    }
    // Per lane: log(sum) or 1/sum, computed in double and rounded once.
    R c[NV], nm[NV];
    SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
        if (kLog)
            c[u] = wmap<V>(sum[u], [](VD::R s) { return log_f64(s); }).narrow();
        else
            c[u] = wmap<V>(sum[u], [](VD::R s) { return VD::div(VD::set1(1.0), s); }).narrow();
        nm[u] = V::sub(zero, mx[u]);
    }
    for (size_t j = 0; j < r; ++j) {
        const T* xr = x + ptrdiff_t(j) * xrs;
        T* yr = y + ptrdiff_t(j) * yrs;
        if (j + kColPrefetch < r) prefetch_row(yr + ptrdiff_t(kColPrefetch) * yrs, bytes, true);
        SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
            const R v = ld_lane<NV, PARTIAL>(xr, u, tail, zero);
            st_lane<NV, PARTIAL>(yr, u, tail,
                                 kLog ? V::sub(V::add(v, nm[u]), c[u])
                                      : V::mul(MX::template ex<false, true, kSumDeg<T, K>>(v, nm[u]), c[u]));
        }
    }
}

template <class T, SoftmaxKind K>
void softmax_or_log_cols(const void* xv, void* yv, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs) {
    const VecScope scope;
    const T* x = static_cast<const T*>(xv);
    T* y = static_cast<T*>(yv);
    for_lane_blocks<Vec<T>>(k, [&](auto nv, auto partial, size_t l, size_t tail) {
        softmax_cols_block<T, K, decltype(nv)::value, decltype(partial)::value>(
            x + l, y + l, r, tail, xrs, yrs, col_prefetch<Vec<T>>(k, l, decltype(nv)::value, sizeof(T)));
    });
}

SIMDAX_SOFTMAX_KIND_SLOTS(cols)

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
