// LogSoftmax / Softmax over columns: lane l of row j is x[j*xrs + l], and
// every lane is its own group of r elements. Lanes are vectorised (see
// lane_blocks.hpp); rows are walked in blocks of up to kColRows: the block max,
// then the block's sum of exp re-read from L1, folded into per-lane sums
// held in double (a float running sum over many rows would drift). Then one
// output pass, down the lane block (or by rows where the row stride has few
// offsets modulo 4 KiB: softmax_cols_by_rows). Special values as the chunk
// passes (blocks.hpp).
#pragma once

#include "row_offsets.hpp"
#include "simd/lane_blocks.hpp"
#include "softmax/simd/blocks.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

constexpr size_t kColRows = 64;

// Rows of a block whose max and sum passes share L1: a row stride with few
// offsets modulo 4 KiB sends every row of a lane block to the same few L1
// sets, and then only a few rows stay for the sum pass to re-read.
inline size_t col_block_rows(ptrdiff_t row_bytes) {
    const size_t offsets = row_offsets_4k(row_bytes);
    return offsets * 8 < kColRows ? offsets * 8 : kColRows;
}

// Vectors of a lane block whose max and sum passes run together over a
// block of rows: each keeps three vectors (block max, -max, sum) live in
// the row loops, which with more vectors than registers went to the stack
// at every row (cols_states' blocks of 32 vectors).
template <class V>
constexpr int kReduceVectors = RegsOf<V>::value / 4;

// Per lane of a block: mx = max, sum = sum of exp(x - mx) in double.
template <class T, SoftmaxKind K, int NV, bool PARTIAL>
SIMDAX_INLINE void cols_block_reduce(const T* x, size_t r, size_t tail, ptrdiff_t xrs, const ColPrefetch& pf,
                                     typename Vec<T>::R* mx, Wide<Vec<T>>* sum) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    using W = Wide<V>;
    using MX = SmxMath<V>;
    constexpr int Q = NV < kReduceVectors<V> ? NV : kReduceVectors<V>;
    static_assert(NV % Q == 0, "lane blocks are whole groups of Q vectors");
    const R ninf = V::set1(E(-__builtin_inf())), one = V::set1(E(1)), zero = V::zero();
    const size_t bytes = (size_t(NV - 1) * V::N + tail) * sizeof(T);
    SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
        mx[u] = ninf;
        sum[u] = wsplat<V>(0.0);
    }
    const size_t block_rows = col_block_rows(xrs * ptrdiff_t(sizeof(T)));
    for (size_t j0 = 0; j0 < r; j0 += block_rows) {
        const size_t j1 = r - j0 < block_rows ? r : j0 + block_rows;
        for (int q = 0; q < NV; q += Q) {
            R bm[Q], nh[Q], bs[Q];
            SIMDAX_UNROLL for (int u = 0; u < Q; ++u) bm[u] = ninf;
            for (size_t j = j0; j < j1; ++j) {
                const T* row = x + ptrdiff_t(j) * xrs;
                if (q == 0) {
                    if (pf.ahead && j + kColPrefetch < r)
                        prefetch_row(row + ptrdiff_t(kColPrefetch) * xrs, bytes, false);
                    if (pf.next_bytes && j0 == 0) prefetch_row(row + pf.next, pf.next_bytes, false);
                }
                SIMDAX_UNROLL for (int u = 0; u < Q; ++u) bm[u] =
                    V::max(bm[u], ld_lane<NV, PARTIAL>(row, q + u, tail, ninf));
            }
            W fo[Q];
            SIMDAX_UNROLL for (int u = 0; u < Q; ++u) {
                const R nm = V::max(mx[q + u], bm[u]);  // a NaN block max survives (second operand)
                fo[u] = W::from(
                    V::blend(V::eq(mx[q + u], nm), MX::template ex<false>(mx[q + u], V::sub(zero, nm)), one));
                nh[u] = V::sub(zero, V::blend(V::eq(nm, ninf), nm, zero));
                mx[q + u] = nm;
                bs[u] = zero;
            }
            for (size_t j = j0; j < j1; ++j) {
                const T* row = x + ptrdiff_t(j) * xrs;
                SIMDAX_UNROLL for (int u = 0; u < Q; ++u) bs[u] = MX::template ex_add<false, kSumDeg<T, K>>(
                    ld_lane<NV, PARTIAL>(row, q + u, tail, ninf), nh[u], bs[u]);
            }
            SIMDAX_UNROLL for (int u = 0; u < Q; ++u) sum[q + u] =
                wmap<V>(wmap<V>(sum[q + u], fo[u], [](VD::R a, VD::R b) { return VD::mul(a, b); }),
                        W::from(bs[u]), [](VD::R a, VD::R b) { return VD::add(a, b); });
        }
    }
}

// A lane's output from x, nm = -max and c = log(sum) (LogSoftmax) or 1/sum
// (Softmax): both output walks (cols_block_write, cols_write_by_rows).
template <class T, SoftmaxKind K>
SIMDAX_INLINE typename Vec<T>::R cols_out(typename Vec<T>::R v, typename Vec<T>::R nm, typename Vec<T>::R c) {
    using V = Vec<T>;
    if constexpr (K == SoftmaxKind::log)
        return V::sub(V::add(v, nm), c);
    else
        return V::mul(SmxMath<V>::template ex<false, kSumDeg<T, K>>(v, nm), c);
}

// y of a block from per-lane nm = -max and c = log(sum) (LogSoftmax) or
// 1/sum (Softmax).
template <class T, SoftmaxKind K, int NV, bool PARTIAL>
SIMDAX_INLINE void cols_block_write(const T* x, T* y, size_t r, size_t tail, ptrdiff_t xrs, ptrdiff_t yrs,
                                    const typename Vec<T>::R* nm, const typename Vec<T>::R* c) {
    using V = Vec<T>;
    using R = typename V::R;
    const R zero = V::zero();
    const size_t bytes = (size_t(NV - 1) * V::N + tail) * sizeof(T);
    for (size_t j = 0; j < r; ++j) {
        const T* xr = x + ptrdiff_t(j) * xrs;
        T* yr = y + ptrdiff_t(j) * yrs;
        if (j + kColPrefetch < r) prefetch_row(yr + ptrdiff_t(kColPrefetch) * yrs, bytes, true);
        SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
            const R v = ld_lane<NV, PARTIAL>(xr, u, tail, zero);
            st_lane<NV, PARTIAL>(yr, u, tail, cols_out<T, K>(v, nm[u], c[u]));
        }
    }
}

// log(sum) or 1/sum per lane, computed in double and rounded once.
template <class V, SoftmaxKind K>
SIMDAX_INLINE typename V::R lane_divisor_term(const Wide<V>& sum) {
    if constexpr (K == SoftmaxKind::log)
        return wmap<V>(sum, [](VD::R s) { return log_f64(s); }).narrow();
    else
        return wmap<V>(sum, [](VD::R s) { return VD::div(VD::set1(1.0), s); }).narrow();
}

template <class T, SoftmaxKind K, int NV, bool PARTIAL>
void softmax_cols_block(const T* x, T* y, size_t r, size_t tail, ptrdiff_t xrs, ptrdiff_t yrs,
                        const ColPrefetch& pf) {
    using V = Vec<T>;
    using R = typename V::R;
    R mx[NV], c[NV], nm[NV];
    Wide<V> sum[NV];
    cols_block_reduce<T, K, NV, PARTIAL>(x, r, tail, xrs, pf, mx, sum);
    SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
        c[u] = lane_divisor_term<V, K>(sum[u]);
        nm[u] = V::sub(V::zero(), mx[u]);
    }
    cols_block_write<T, K, NV, PARTIAL>(x, y, r, tail, xrs, yrs, nm, c);
}

// Lanes [0, kc) of rows [0, r), a whole row at a time, from per-lane -max
// (nme) and log(sum) or 1/sum (ce): the arithmetic of cols_block_write.
// stream: non-temporal stores (the caller fences).
template <class T, SoftmaxKind K>
void cols_write_by_rows(const T* x, T* y, size_t r, size_t kc, ptrdiff_t xrs, ptrdiff_t yrs,
                        const typename Vec<T>::E* nme, const typename Vec<T>::E* ce, bool stream) {
    using V = Vec<T>;
    for (size_t j = 0; j < r; ++j) {
        const T* xr = x + ptrdiff_t(j) * xrs;
        store_run(result_ptr(y + ptrdiff_t(j) * yrs), kc, stream, [&](size_t l, size_t c) {
            if (c == V::N) return cols_out<T, K>(V::load(xr + l), V::load(nme + l), V::load(ce + l));
            return cols_out<T, K>(V::loadn(xr + l, c, V::zero()), V::loadn(nme + l, c, V::zero()),
                                  V::loadn(ce + l, c, V::zero()));
        });
    }
}

// The column walk for row strides with few offsets modulo 4 KiB
// (cols_by_rows), and for outputs written with non-temporal stores (which
// must fill whole lines in turn): walking a lane block down its rows, the
// output pass would load every row at the low address bits of the stores
// still pending from the rows above it (the same lanes), and each load waits
// for them. Here each
// chunk of lanes (kByRowsBytes of a row: a load meets the low address bits
// of a pending store only a chunk row of stores later, as in a memcpy) is
// reduced block by block as before, its -max and log(sum) or 1/sum kept per
// lane in L1, and then written a whole chunk row at a time.
template <class T, SoftmaxKind K>
void softmax_cols_by_rows(const T* x, T* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs, bool stream) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    constexpr size_t N = V::N, kChunk = kByRowsBytes / sizeof(T);
    alignas(64) E nme[kChunk], ce[kChunk];
    for_lane_chunks(k, kChunk, [&](size_t c0, size_t kc) {
        for_lane_blocks<V>(kc, [&](auto nv, auto partial, size_t l, size_t tail) {
            constexpr int NV = decltype(nv)::value;
            R mx[NV];
            Wide<V> sum[NV];
            cols_block_reduce<T, K, NV, decltype(partial)::value>(
                x + c0 + l, r, tail, xrs, col_prefetch<V>(kc, l, NV, sizeof(T)), mx, sum);
            SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
                const size_t at = l + size_t(u) * N, n = u == NV - 1 ? tail : N;
                V::storen(nme + at, V::sub(V::zero(), mx[u]), n);
                V::storen(ce + at, lane_divisor_term<V, K>(sum[u]), n);
            }
        });
        cols_write_by_rows<T, K>(x + c0, y + c0, r, kc, xrs, yrs, nme, ce, stream);
    });
}

template <class T, SoftmaxKind K>
void softmax_or_log_cols(const void* xv, void* yv, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs,
                         bool stream) {
    const VecScope scope;
    const T* x = static_cast<const T*>(xv);
    T* y = static_cast<T*>(yv);
    // Strides that walk by rows anyway keep plain stores: streaming them
    // measured no gain ([64,16384] over axis 0: 1.03x the time).
    if (cols_by_rows(xrs, yrs, sizeof(T))) return softmax_cols_by_rows<T, K>(x, y, r, k, xrs, yrs, false);
    if (stream && xv != yv) {
        softmax_cols_by_rows<T, K>(x, y, r, k, xrs, yrs, true);
        return stream_fence();
    }
    for_lane_blocks<Vec<T>>(k, [&](auto nv, auto partial, size_t l, size_t tail) {
        softmax_cols_block<T, K, decltype(nv)::value, decltype(partial)::value>(
            x + l, y + l, r, tail, xrs, yrs, col_prefetch<Vec<T>>(k, l, decltype(nv)::value, sizeof(T)));
    });
}

SIMDAX_SOFTMAX_KIND_COLS_SLOTS

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
