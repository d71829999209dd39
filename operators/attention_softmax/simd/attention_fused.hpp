// Softmax rows of at most kBlock keys in two passes: blocks of kFuseVecs
// vectors have their logits formed in registers, their maximum admitted
// into the row's running one, their exp(z - max) stored in the stack buffer
// and summed; the output pass scales each block by exp(its max - the row's
// final max) / sum. (LogSoftmax keeps the logits: attention_rows.hpp.)
#pragma once

#include <cmath>

#include "attention_softmax/simd/attention_rows.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {
namespace attn {

constexpr size_t kFuseVecs = 8;

// One block of keys [j, j + nb): logits into z[], their max.
template <int FL, class T, class MT>
SIMDAX_INLINE R block_logits(const Consts& c, const T* x, const MT* mk, size_t j, size_t nb, R* z) {
    R bm = V::set1(-__builtin_inff());
    SIMDAX_UNROLL for (size_t k = 0; k < kFuseVecs; ++k) {
        const size_t at = k * V::N;
        if (at >= nb) {
            z[k] = V::set1(-__builtin_inff());
            continue;
        }
        z[k] = nb - at >= V::N ? logit<false, FL>(c, x, mk, j + at, V::N)
                               : logit<true, FL>(c, x, mk, j + at, nb - at);
        bm = V::max(bm, z[k]);
    }
    return bm;
}

template <class T, class MT, int FL>
void fused_softmax_row(const AttnRowArgs& a) {
    constexpr size_t B = kFuseVecs * V::N;
    const Consts c(a);
    const T* x = static_cast<const T*>(a.x);
    const MT* mk = static_cast<const MT*>(a.mask);
    T* y = static_cast<T*>(a.y);
    alignas(64) float buf[kBlock];
    float bref[kBlock / (kFuseVecs * 4)];  // each block's reference max (V::N >= 4)
    float m = -__builtin_inff();
    bool nan = false;
    R acc = V::zero();
    const size_t nblocks = (a.n + B - 1) / B;
    for (size_t b = 0; b < nblocks; ++b) {
        const size_t j = b * B, nb = a.n - j < B ? a.n - j : B;
        R z[kFuseVecs];
        const float bm = V::hmax(block_logits<FL>(c, x, mk, j, nb, z));
        if (!(bm > -__builtin_inff())) {  // only -inf, or a NaN hmax missed
            for (size_t k = 0; k < kFuseVecs; ++k) nan |= V::bits(V::isnan(z[k])) != 0;
            for (size_t i = 0; i < nb; ++i) buf[j + i] = 0.0f;
            bref[b] = -__builtin_inff();
            continue;
        }
        if (bm > m) {
            acc = V::mul(acc, V::set1(std::exp(m - bm)));
            m = bm;
        }
        bref[b] = m;
        const R mv = V::set1(m);
        SIMDAX_UNROLL for (size_t k = 0; k < kFuseVecs; ++k) {
            const size_t at = k * V::N;
            if (at >= nb) break;
            const R e = exp_below(z[k], mv, c.log2e);
            acc = V::add(acc, e);
            if (nb - at >= V::N)
                V::store(buf + j + at, e);
            else
                V::storen(buf + j + at, e, nb - at);
        }
    }
    AttnState st{nan ? __builtin_nanf("") : m, nan ? __builtin_nanf("") : V::hsum(acc)};
    const AttnState fin = attn_state::with_sink(st, a.sink);
    if (a.lse) *a.lse = attn_state::log_sum_exp(fin);
    if (st.m == -__builtin_inff()) return fill(y, a.n, false);
    for (size_t b = 0; b < nblocks; ++b) {
        const size_t j = b * B, nb = a.n - j < B ? a.n - j : B;
        const R k = V::set1(std::exp(bref[b] - fin.m) / fin.s);
        store_map(buf + j, y + j, nb, [&](R e) { return V::mul(e, k); });
    }
}

}  // namespace attn
}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
