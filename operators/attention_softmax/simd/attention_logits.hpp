// AttentionSoftmax's logits in float32 (attention_rows.hpp says why in
// natural units): the loop-invariant vectors of a row, a vector of logits
// (scale, softcap, ALiBi, mask), a block of them into the stack buffer, and
// the sum of their exponentials. Apart from the row kernels so that each
// file holds one step.
#pragma once

#include <cstdint>
#include <type_traits>

#include "attention_softmax/attention_state.hpp"
#include "simd/activation.hpp"
#include "simd/exp2_f32.hpp"
#include "simd/vec.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {
namespace attn {

constexpr size_t kBlock = 4096;  // keys per stack buffer (16 KB)
// Softmax rows up to kFuseVecs vectors stay in registers (attention_fused.hpp).
constexpr size_t kFuseVecs = 8;
struct NoMask {};

using V = VF;
using R = VF::R;

inline R iota() {
    alignas(64) static constexpr float kIota[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                                                    11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                                    22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
    static_assert(V::N <= 32);
    return V::load(kIota);
}

using attn_state::kLog2e;

// The loop-invariant vectors of a row's logits.
struct Consts {
    R scale, cap, linear, log2e, slope, pos, idx;
    explicit Consts(const AttnRowArgs& a)
        : scale(V::set1(a.scale)),
          cap(V::set1(a.softcap)),
          linear(V::set1(a.softcap * attn_state::kSoftcapLinear)),
          log2e(V::set1(kLog2e)),
          slope(V::set1(a.slope)),
          pos(V::set1(a.pos)),
          idx(iota()) {}
};

// 2^t for t <= 0 (NaN stays NaN; -inf gives 0), by a polynomial of degree
// DEG (exp2_f32.hpp: 3 is for float16/bfloat16 Softmax outputs only).
template <int DEG = 5>
SIMDAX_INLINE R pow2(R t) {
    return exp2_nonpos_f32<DEG>(t);
}
// exp(z - m) for z <= m.
template <int DEG = 5>
SIMDAX_INLINE R exp_below(R z, R m, R log2e) {
    return pow2<DEG>(V::mul(V::sub(z, m), log2e));
}

// FL: bit 0 softcap, bit 1 ALiBi, bit 2 kFmaMask (compile-time: no test
// per vector; folding the four variants into two cost softcap rows 21%).
// kFmaMask: x * scale + mask as one FMA, for a float mask without softcap
// and |scale| <= 1 (with_flags), where the product cannot overflow: the
// FMA then differs from two roundings by a rounding only. A product beyond
// float32's range is +inf, and +inf plus a -inf mask is NaN where one FMA
// gives -inf.
constexpr int kFmaMask = 4;
template <class MT>
constexpr bool kFloatMask = !std::is_same_v<MT, NoMask> && !std::is_same_v<MT, uint8_t>;

// The logits of keys j..j+cnt (cnt < N only when Tail; the lanes past cnt
// are -inf).
template <bool Tail, int FL, class T, class MT>
SIMDAX_INLINE R logit(const Consts& c, const T* x, const MT* mk, size_t j, size_t cnt) {
    R z = Tail ? V::loadn(x + j, cnt, V::zero()) : V::load(x + j);
    if constexpr ((FL & kFmaMask) != 0) {
        static_assert(kFloatMask<MT> && (FL & 1) == 0);
        z = V::fma(z, c.scale, Tail ? V::loadn(mk + j, cnt, V::zero()) : V::load(mk + j));
    } else {
        z = V::mul(z, c.scale);
        // Divided, not folded into scale: scale / softcap may underflow to 0
        // (an infinite score then gives NaN instead of +-softcap).
        if constexpr ((FL & 1) != 0)
            z = V::blend(V::lt(V::abs(z), c.linear), V::mul(c.cap, tanh_v<V>(V::div(z, c.cap))), z);
        if constexpr (kFloatMask<MT>)
            z = V::add(Tail ? V::loadn(mk + j, cnt, V::zero()) : V::load(mk + j), z);
    }
    if constexpr ((FL & 2) != 0) z = V::fma(c.slope, V::add(c.idx, V::add(c.pos, V::set1(float(j)))), z);
    if constexpr (std::is_same_v<MT, uint8_t>) {
        // Last: masked keys become -inf whatever their score or slope (NaN
        // included). A tail's bytes are copied: N bytes would read past it.
        if (Tail) {
            uint8_t tail[V::N] = {};
            for (size_t l = 0; l < cnt; ++l) tail[l] = mk[j + l];
            z = V::blend(V::zero_bytes(tail), z, V::set1(-__builtin_inff()));
        } else {
            z = V::blend(V::zero_bytes(mk + j), z, V::set1(-__builtin_inff()));
        }
    }
    if (Tail) z = V::blend(V::lanes(cnt), V::set1(-__builtin_inff()), z);
    return z;
}

// Logits of keys [0, n) into buf (n <= kBlock); returns their max, NaN when
// one is NaN and the others -inf (hmax may miss a NaN; the sum will not).
// This and exp_sum are inlined: out of line, a row of 128 keys paid for a
// call and its constants' broadcasts about a sixth of its time.
template <int FL, class T, class MT>
SIMDAX_INLINE float logits(const Consts& c, const T* x, const MT* mk, size_t n, float* buf) {
    R m0 = V::set1(-__builtin_inff()), m1 = m0;
    size_t j = 0;
    for (; j + 2 * V::N <= n; j += 2 * V::N) {
        const R z0 = logit<false, FL>(c, x, mk, j, V::N), z1 = logit<false, FL>(c, x, mk, j + V::N, V::N);
        V::store(buf + j, z0);
        V::store(buf + j + V::N, z1);
        m0 = V::max(m0, z0);
        m1 = V::max(m1, z1);
    }
    for (; j + V::N <= n; j += V::N) {
        const R z = logit<false, FL>(c, x, mk, j, V::N);
        V::store(buf + j, z);
        m0 = V::max(m0, z);
    }
    if (j < n) {
        const R z = logit<true, FL>(c, x, mk, j, n - j);
        V::storen(buf + j, z, n - j);
        m1 = V::max(m1, z);
    }
    float m = V::hmax(V::max(m0, m1));
    if (!(m > -__builtin_inff()))
        for (size_t i = 0; i < n; ++i)
            if (buf[i] != buf[i]) m = buf[i];
    return m;
}

// Sum of exp(buf[j] - m) over [0, n); Store: buf[j] becomes the power.
// One accumulator: a second one spilled on AVX2 (16 registers, the
// polynomial's constants held), a dependency through memory per pair.
// Fold: 2^(z*log2e - hi) by one FMA, hi = m*log2e rounded (|m| within
// Softmax's fold limit), whose common factor 2^(m*log2e - hi) the sum
// carries too: for outputs divided by that sum only.
template <bool Store, int DEG = 5, bool Fold = false>
SIMDAX_INLINE float exp_sum(float* buf, size_t n, float m) {
    const R mv = V::set1(Fold ? -m * kLog2e : m), log2e = V::set1(kLog2e);
    const auto ex = [&](R z) __attribute__((always_inline)) {
        return Fold ? pow2<DEG>(V::fma(z, log2e, mv)) : exp_below<DEG>(z, mv, log2e);
    };
    R s = V::zero();
    size_t j = 0;
    for (; j + 2 * V::N <= n; j += 2 * V::N) {
        const R e0 = ex(V::load(buf + j));
        const R e1 = ex(V::load(buf + j + V::N));
        if (Store) {
            V::store(buf + j, e0);
            V::store(buf + j + V::N, e1);
        }
        s = V::add(s, V::add(e0, e1));
    }
    for (; j < n; j += V::N) {
        const size_t r = n - j < V::N ? n - j : V::N;
        const R e = ex(V::loadn(buf + j, r, V::set1(-__builtin_inff())));
        if (Store) V::storen(buf + j, e, r);
        s = V::add(s, e);
    }
    return V::hsum(s);
}

}  // namespace attn
}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
