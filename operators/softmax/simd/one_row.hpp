// One row at a time: the general path (any length, any max) and the row of
// at most one vector. The rows strategies hand these the rows they do not
// take themselves.
//
// General path, per row: pass 1 walks the row in blocks (blocks.hpp), the
// max of block k+1 taken in the same loop as the sum of block k; when the
// max grows, the partial sum is rescaled once. Pass 2 writes the output.
// Float32 Softmax stores 2^t into y during pass 1 and only rescales it in
// pass 2 (no second exp).
#pragma once

#include <cmath>

#include <cstring>
#include <type_traits>

#include "softmax/simd/blocks.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

constexpr size_t kStoreMaxBlocks = 64;  // float32 Softmax: per-block shifts kept

// A row's statistics: max m, shift hi, sum s of 2^t (NaN when the row's
// output is NaN), lo_ln = lo*ln2.
template <class E>
struct RowStat {
    E m, hi, s, lo_ln;
    bool fold;
};

// A row's statistics as its blocks come (row_stats, rows_long.hpp): each
// block's max is admitted, then the sum of its 2^t relative to hi added.
template <class V, bool FOLD, int DEG>
struct RowRun {
    using E = typename V::E;
    using R = typename V::R;
    using MX = SmxMath<V>;
    enum Admit { sum, skip, unfoldable };
    E m = E(-__builtin_inf()), hi = 0;
    R acc = V::zero();
    bool have = false, bad = false;

    // bm, the max of block xb[0..nb): skip for a block of only -inf
    // (contributes 0) or a NaN max (the row's output is NaN); unfoldable
    // when FOLD meets a max too large (the row is redone unfolded). A
    // larger max rescales the sum so far.
    template <class T>
    Admit admit(E bm, const T* xb, size_t nb) {
        if (!(bm > E(-__builtin_inf()))) {
            if (bm != bm || block_has_nan(xb, nb)) bad = true;
            return skip;
        }
        if (FOLD && !MX::template foldable<DEG>(bm)) return unfoldable;
        if (bm > m) {
            const E nhi = MX::template hi_of<FOLD>(bm);
            if (have) acc = V::mul(acc, V::set1(MX::template rescale<FOLD>(hi, nhi)));
            m = bm;
            hi = nhi;
        }
        have = true;
        return sum;
    }
    void add(R s) { acc = V::add(acc, s); }
    RowStat<E> stat() const {
        return {m, hi, (bad || !have) ? E(__builtin_nan("")) : V::hsum(acc),
                have ? MX::template lo_ln<FOLD>(m, hi) : E(0), FOLD};
    }
};

// LogSoftmax's ls = log(sum) - lo*ln2 of a row: its output is x - m - ls.
template <class V>
inline typename V::E row_log_sum(const RowStat<typename V::E>& st) {
    return V::first(SmxMath<V>::log(V::set1(st.s))) - st.lo_ln;
}

// One row's pass 1. Returns false when FOLD meets a max too large to fold
// (the caller redoes the row unfolded). STORE: block b's 2^t values are
// relative to bhi[b] (-inf for a block of only -inf, stored as zeros).
// sc (float rows): a previous row's scaling, run in the fused loops
// (rows_long_softmax.hpp). head (float rows): x[-head, 0) and y[-head, 0)
// belong to block 0 too, so that the blocks' vectors start where the
// caller chose (rows_long_softmax.hpp: at y's vector boundary).
template <class T, bool FOLD, bool STORE, int DEG>
inline bool row_stats(const T* x, T* y, size_t n, RowStat<typename Vec<T>::E>& st, typename Vec<T>::E* bhi,
                      ScaleRun<typename Vec<T>::E>* sc = nullptr, size_t head = 0) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    RowRun<V, FOLD, DEG> run;
    // float16/bfloat16: the max pass converts each block once, into one half
    // of cbuf; the sum pass reads that float copy from L1.
    constexpr bool kBuf = !std::is_same_v<T, E>;
    static_assert(!kBuf || !STORE, "2^t is stored for float rows only");
    alignas(64) E cbuf[kBuf ? 2 * kSoftmaxBlock : 1];
    auto half = [&](size_t k) -> E* { return kBuf ? cbuf + (k & 1) * kSoftmaxBlock : nullptr; };
    // The max of block k+1 is taken in the same loop as the sum of block k.
    E bm_next = block_max(x, n < kSoftmaxBlock ? n : kSoftmaxBlock, half(0));
    if constexpr (!kBuf) {
        // A NaN lost here still makes the row NaN: through the head's sum,
        // or through a row with no block admitted.
        const E hm = head ? block_max(x - head, head) : bm_next;
        bm_next = hm > bm_next ? hm : bm_next;
    }
    for (size_t b = 0, k = 0; b < n; b += kSoftmaxBlock, ++k) {
        const size_t nb = n - b < kSoftmaxBlock ? n - b : kSoftmaxBlock;
        const size_t b2 = b + kSoftmaxBlock,
                     nb2 = b2 < n ? (n - b2 < kSoftmaxBlock ? n - b2 : kSoftmaxBlock) : 0;
        const auto admit = run.admit(bm_next, x + b, nb);
        if (admit == run.unfoldable) return false;
        const size_t hb = k == 0 ? head : 0;  // the head's elements, before block 0
        if (admit == run.skip) {
            if constexpr (STORE) {
                std::memset(static_cast<void*>(y + b - hb), 0, (hb + nb) * sizeof(T));
                bhi[k] = E(-__builtin_inf());
            }
            if (nb2) bm_next = block_max(x + b2, nb2, half(k + 1));
            continue;
        }
        const R nh = V::set1(-run.hi);
        if constexpr (!kBuf)
            if (hb) run.add(fused_block_sum<T, FOLD, STORE, DEG>(x - hb, y - hb, hb, nh));
        if constexpr (kBuf) {
            E* const cur = half(k);
            if (nb2)
                run.add(fused_block_sum_max<E, FOLD, false, DEG>(cur, nullptr, nb, nh, x + b2, nb2, bm_next,
                                                                 half(k + 1)));
            else
                run.add(fused_block_sum<E, FOLD, false, DEG>(cur, nullptr, nb, nh));
        } else if (nb2 && sc) {
            run.add(fused_block_sum_max<T, FOLD, STORE, DEG, T, true>(x + b, y + b, nb, nh, x + b2, nb2,
                                                                      bm_next, nullptr, sc));
        } else if (nb2) {
            run.add(fused_block_sum_max<T, FOLD, STORE, DEG>(x + b, y + b, nb, nh, x + b2, nb2, bm_next));
        } else {
            run.add(fused_block_sum<T, FOLD, STORE, DEG>(x + b, y + b, nb, nh));
        }
        if constexpr (STORE) bhi[k] = run.hi;
    }
    st = run.stat();
    return true;
}

template <class T, bool STORE, int DEG>
inline void row_stats_any(const T* x, T* y, size_t n, RowStat<typename Vec<T>::E>& st,
                          typename Vec<T>::E* bhi) {
    if constexpr (SmxMath<Vec<T>>::kCanFold) {
        if (row_stats<T, true, STORE, DEG>(x, y, n, st, bhi)) return;
    }
    row_stats<T, false, STORE, DEG>(x, y, n, st, bhi);
}

template <class T>
inline void softmax_row_out(const T* x, T* y, size_t n, const RowStat<typename Vec<T>::E>& st,
                            typename Vec<T>::E inv, bool stream) {
    using V = Vec<T>;
    using R = typename V::R;
    using MX = SmxMath<V>;
    constexpr int D = kSumDeg<T, SoftmaxKind::softmax>;
    const R nh = V::set1(-st.hi), vi = V::set1(inv);
    if (st.fold)
        map(
            x, result_ptr(y), n, [nh, vi](R v) { return V::mul(MX::template ex<true, D>(v, nh), vi); },
            stream);
    else
        map(
            x, result_ptr(y), n, [nh, vi](R v) { return V::mul(MX::template ex<false, D>(v, nh), vi); },
            stream);
}

// y[i] *= f over a contiguous float/double run.
template <class E>
inline void scale_in_place(E* y, size_t n, E f) {
    using V = Vec<E>;
    using R = typename V::R;
    const R vf = V::set1(f);
    map(y, y, n, [vf](R v) { return V::mul(v, vf); });
}

// One row done alone (the general path): statistics, then its output.
template <class T, SoftmaxKind K>
inline void softmax_row_alone(const T* x, T* y, size_t n, bool stream) {
    constexpr bool kLog = K == SoftmaxKind::log;
    using V = Vec<T>;
    using E = typename V::E;
    using MX = SmxMath<V>;
    constexpr bool kStoreOk = !kLog && std::is_same_v<T, E>;
    const size_t nblocks = (n + kSoftmaxBlock - 1) / kSoftmaxBlock;
    const bool store =
        kStoreOk && nblocks <= kStoreMaxBlocks && static_cast<const void*>(x) != static_cast<void*>(y);
    RowStat<E> st;
    E bhi[kStoreMaxBlocks];
    if (store)
        row_stats_any<T, kStoreOk, kSumDeg<T, K>>(x, y, n, st, bhi);
    else
        row_stats_any<T, false, kSumDeg<T, K>>(x, y, n, st, bhi);
    if (kLog) {
        log_softmax_row_out(x, y, n, st.m, row_log_sum<V>(st), stream);
        return;
    }
    const E inv = E(1) / st.s;
    if (!store) return softmax_row_out(x, y, n, st, inv, stream);
    E* ye = reinterpret_cast<E*>(y);
    for (size_t b = 0, k = 0; b < n; b += kSoftmaxBlock, ++k) {
        const size_t nb = n - b < kSoftmaxBlock ? n - b : kSoftmaxBlock;
        E f = inv;
        if (bhi[k] != st.hi)
            f *= st.fold ? MX::template rescale<true>(bhi[k], st.hi)
                         : MX::template rescale<false>(bhi[k], st.hi);
        scale_in_place(ye + b, nb, f);
    }
}

// A row of at most one vector: one masked load and store, no blocks (a
// 4-element LogSoftmax is otherwise mostly the block machinery). Same math as
// row_stats with FOLD. Returns false, having written nothing, for a row the
// general path must do: a NaN, an infinite max, or a max too large to fold.
template <class T, SoftmaxKind K>
inline bool softmax_row_short(const T* x, T* y, size_t n) {
    constexpr bool kLog = K == SoftmaxKind::log;
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    using MX = SmxMath<V>;
    const R v = V::loadn(x, n, V::set1(E(-__builtin_inf())));
    const E m = V::hmax_n(v, n);
    if (V::bits(V::isnan(v)) || !MX::template foldable<kSumDeg<T, K>>(m)) return false;
    const E hi = MX::template hi_of<true>(m);
    // Missing lanes are -inf: 2^t = 0, whether hsum_n leaves them out or not.
    const R e = MX::template ex<true, kSumDeg<T, K>>(v, V::set1(-hi));
    const E s = V::hsum_n(e, n);
    if constexpr (kLog) {
        // One value: the scalar log's latency is a fraction of a vector log's.
        const E ls = E(std::log(double(s))) - MX::template lo_ln<true>(m, hi);
        const E c = m + ls;
        const R out =
            c < E(16) && c > E(-16) ? V::sub(v, V::set1(c)) : V::sub(V::sub(v, V::set1(m)), V::set1(ls));
        V::storen(result_ptr(y), out, n);
    } else {
        V::storen(result_ptr(y), V::mul(e, V::set1(E(1) / s)), n);
    }
    return true;
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
