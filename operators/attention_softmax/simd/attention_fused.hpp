// Softmax rows of at most kFuseVecs vectors held in registers: the logits
// formed into those vectors with their max, replaced by exp(z - max)
// with the sum taken alongside, then scaled and stored. No stack buffer,
// no scalar exponential (unless a sink moves the max). (Longer rows and
// LogSoftmax: attention_rows.hpp.)
#pragma once

#include <cmath>

#include "attention_softmax/simd/attention_rows.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {
namespace attn {

// Full: n is kFuseVecs vectors exactly (no test per vector: z[] stays in
// registers). a.stream: y is at its vector alignment (row()).
template <bool Full, class T, class MT, int FL, int DEG>
void fused_row(const AttnRowArgs& a) {
    const Consts c(a);
    const T* x = static_cast<const T*>(a.x);
    const MT* mk = static_cast<const MT*>(a.mask);
    auto* y = result_ptr(static_cast<T*>(a.y));  // as Softmax's outputs (dtypes.hpp)
    const size_t n = Full ? kFuseVecs * V::N : a.n;
    R z[kFuseVecs];
    SIMDAX_UNROLL for (size_t k = 0; k < kFuseVecs; ++k) {
        const size_t at = k * V::N;
        if (!Full && at >= n) {
            z[k] = V::set1(-__builtin_inff());
            continue;
        }
        z[k] = Full || n - at >= V::N ? logit<false, FL>(c, x, mk, at, V::N)
                                      : logit<true, FL>(c, x, mk, at, n - at);
    }
    const size_t used = Full ? kFuseVecs : (n + V::N - 1) / V::N;
    float m = V::hmax(tree_fold<V>(z, used, [](R p, R q) { return V::max(p, q); }));
    if (!(m > -__builtin_inff())) {  // only -inf, or a NaN hmax missed
        bool nan = false;
        SIMDAX_UNROLL for (size_t k = 0; k < kFuseVecs; ++k) nan |= V::bits(V::isnan(z[k])) != 0;
        if (!nan) {
            if (a.lse) *a.lse = attn_state::empty_lse(a.sink);
            return fill(y, n, false);
        }
        m = __builtin_nanf("");
    }
    // z becomes the powers; their sum as a tree.
    const auto powers = [&](auto ex) __attribute__((always_inline)) {
        R e[kFuseVecs];
        SIMDAX_UNROLL for (size_t k = 0; k < kFuseVecs; ++k) e[k] = V::zero();  // unread past n
        SIMDAX_UNROLL for (size_t k = 0; k < kFuseVecs; ++k) {
            if (!Full && k * V::N >= n) break;
            e[k] = z[k] = ex(z[k]);
        }
        return V::hsum(tree_fold<V>(e, used, [](R p, R q) { return V::add(p, q); }));
    };
    R scale;
    if (folds<DEG>(a, m)) {
        // 2^(z*log2e - hi), one FMA, carries the common factor
        // 2^(m*log2e - hi), which the division by their sum cancels (as
        // Softmax's fold, blocks.hpp).
        const R nh = V::set1(-SmxMath<V>::template hi_of<true>(m));
        scale = V::set1(1.0f / powers([&](R v) { return pow2<DEG>(V::fma(v, c.log2e, nh)); }));
    } else {
        const R mv = V::set1(m);
        const AttnState st{m, powers([&](R v) { return exp_below<DEG>(v, mv, c.log2e); })};
        const AttnState fin = attn_state::with_sink(st, a.sink);
        if (a.lse) *a.lse = attn_state::log_sum_exp(fin);
        // The powers are relative to the row's max; a larger sink moved it.
        scale = V::set1(fin.m == st.m ? 1.0f / fin.s : std::exp(st.m - fin.m) / fin.s);
    }
    // A loop per store kind, not a test per store; inlined, as powers is:
    // a closure called twice keeps z on the stack.
    const auto store_all = [&](auto store) __attribute__((always_inline)) {
        SIMDAX_UNROLL for (size_t k = 0; k < kFuseVecs; ++k) {
            const size_t at = k * V::N;
            if (!Full && at >= n) break;
            if (Full || n - at >= V::N)
                store(y + at, V::mul(z[k], scale));
            else
                V::storen(y + at, V::mul(z[k], scale), n - at);
        }
    };
    if (a.stream)
        store_all([](auto* p, R v) { V::stream(p, v); });
    else
        store_all([](auto* p, R v) { V::store(p, v); });
}

// Rows i and i + 1 of q (Full rows) interleaved: a lone row waits on its
// own chain (max, exponentials, sum, reciprocal, stores), and two give the
// core independent work throughout. Their pointers are formed here, not
// read back from argument structs; c0: q.row's logit constants (ALiBi rows
// build their own). Both rows must fold (the caller: no lse, no sink; here:
// each max within the fold's range), else each goes through fused_row.
template <class T, class MT, int FL, int DEG>
void fused_pair(const AttnQueries& q, size_t i, const Consts& c0, AttnRowArgs* a) {
    constexpr size_t K = kFuseVecs;
    R z[2][K];
    float m[2];
    SIMDAX_UNROLL for (int p = 0; p < 2; ++p) {
        const ptrdiff_t r = ptrdiff_t(i) + p;
        const T* x = reinterpret_cast<const T*>(q.x + r * q.x_step);
        const MT* mk = q.mask ? reinterpret_cast<const MT*>(q.mask + r * q.mask_step) : nullptr;
        const auto row = [&](const Consts& c) __attribute__((always_inline)) {
            SIMDAX_UNROLL for (size_t k = 0; k < K; ++k) z[p][k] = logit<false, FL>(c, x, mk, k * V::N, V::N);
        };
        if constexpr ((FL & 2) != 0) {
            a->pos = row_pos(q, size_t(r));
            row(Consts(*a));
        } else {
            row(c0);
        }
        m[p] = V::hmax(tree_fold<V>(z[p], K, [](R u, R v) { return V::max(u, v); }));
    }
    using MX = SmxMath<V>;
    if (!MX::template foldable<DEG>(m[0]) || !MX::template foldable<DEG>(m[1])) {
        for (size_t r = i; r < i + 2; ++r) {
            whole_row(q, r, a);
            fused_row<true, T, MT, FL, DEG>(*a);
        }
        return;
    }
    const R log2e = V::set1(kLog2e);
    R scale[2];
    SIMDAX_UNROLL for (int p = 0; p < 2; ++p) {
        const R nh = V::set1(-MX::template hi_of<true>(m[p]));
        SIMDAX_UNROLL for (size_t k = 0; k < K; ++k) z[p][k] = pow2<DEG>(V::fma(z[p][k], log2e, nh));
        scale[p] = V::set1(1.0f / V::hsum(tree_fold<V>(z[p], K, [](R u, R v) { return V::add(u, v); })));
    }
    SIMDAX_UNROLL for (int p = 0; p < 2; ++p) {
        auto* y = result_ptr(reinterpret_cast<T*>(q.y + (ptrdiff_t(i) + p) * q.y_step));
        SIMDAX_UNROLL for (size_t k = 0; k < K; ++k) V::store(y + k * V::N, V::mul(z[p][k], scale[p]));
    }
}

// The rows of a query block without a causal window, each a Full Softmax
// row (kFuseVecs vectors) without lse or sink, in pairs (fused_pair); not
// streamed (the pairs store plainly).
template <class T, class MT, int FL, int DEG>
struct RegisterPairs {
    static bool applies(const AttnQueries& q) {
        return q.causal == SIMDAX_CAUSAL_NONE && size_t(q.keys) == kFuseVecs * V::N && !q.row.log && !q.lse &&
               q.row.sink == -__builtin_inff() && !q.row.stream;
    }
    static void run(const AttnQueries& q) {
        AttnRowArgs a = q.row;
        a.n = size_t(q.keys);
        a.before = a.after = 0;
        const Consts c0(a);
        size_t i = 0;
        for (; i + 2 <= q.count; i += 2) fused_pair<T, MT, FL, DEG>(q, i, c0, &a);
        if (i < q.count) {
            whole_row(q, i, &a);
            fused_row<true, T, MT, FL, DEG>(a);
        }
    }
};

template <class T, class MT, int FL, int DEG>
void fused_softmax_row(const AttnRowArgs& a) {
    if (a.n == kFuseVecs * V::N) return fused_row<true, T, MT, FL, DEG>(a);
    fused_row<false, T, MT, FL, DEG>(a);
}

}  // namespace attn
}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
