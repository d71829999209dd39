// Native float16 vectors for the neonfp16 kernels (ARMv8.2-A FEAT_FP16,
// compiled with -march=armv8.2-a+fp16; only ever called when HWCAP reports
// ASIMDHP and FPHP). VH = 8 x __fp16, the lane part of vec_contract.hpp's
// vocabulary with vec_neon.hpp's conventions; intrinsics throughout (xsimd
// 8.1 has no float16 type). H16, the storage it computes: simd/f16/h16.hpp.
#pragma once

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_FP16_VECTOR_ARITHMETIC)
#error "vec_neon_fp16.hpp needs -march=armv8.2-a+fp16 (neonfp16 TUs only)"
#endif

#include <arm_neon.h>

#include <cstring>

#include "simd/f16/h16.hpp"
#include "simd/vec.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

struct VH {
    using E = float16_t;
    using R = float16x8_t;
    using M = uint16x8_t;
    static constexpr size_t N = 8;

    static R set1(E v) { return vdupq_n_f16(v); }
    static R zero() { return vreinterpretq_f16_u16(vdupq_n_u16(0)); }
    static M lanes(size_t n) {
        const uint16x8_t idx = {0, 1, 2, 3, 4, 5, 6, 7};
        return vcltq_u16(idx, vdupq_n_u16(uint16_t(n > N ? N : n)));
    }

    static R load(const H16* p) { return vreinterpretq_f16_u16(vld1q_u16(neon_bits::u16(p))); }
    static R loadn(const H16* p, size_t n, R fill) {
        if (n >= N) return load(p);
        const uint16_t* q = neon_bits::u16(p);
        const uint16x8_t v = n >= 4 ? vcombine_u16(vld1_u16(q), neon_bits::load4n(q + 4, n - 4))
                                    : vcombine_u16(neon_bits::load4n(q, n), vdup_n_u16(0));
        return blend(lanes(n), fill, vreinterpretq_f16_u16(v));
    }
    static void store(H16* p, R v) { vst1q_u16(neon_bits::u16(p), vreinterpretq_u16_f16(v)); }
    static void stream(H16* p, R v) { store(p, v); }
    static void storen(H16* p, R v, size_t n) {
        if (n >= N) return store(p, v);
        uint16_t* q = neon_bits::u16(p);
        const uint16x8_t u = vreinterpretq_u16_f16(v);
        if (n >= 4) {
            vst1_u16(q, vget_low_u16(u));
            neon_bits::store4n(q + 4, vget_high_u16(u), n - 4);
        } else {
            neon_bits::store4n(q, vget_low_u16(u), n);
        }
    }

    static R add(R a, R b) { return vaddq_f16(a, b); }
    static R sub(R a, R b) { return vsubq_f16(a, b); }
    static R mul(R a, R b) { return vmulq_f16(a, b); }
    static R fma(R a, R b, R c) { return vfmaq_f16(c, a, b); }  // a*b + c
    static R max(R a, R b) { return vmaxq_f16(a, b); }
    static R min(R a, R b) { return vminq_f16(a, b); }
    static R abs(R a) { return vabsq_f16(a); }

    static R blend(M m, R a, R b) { return vbslq_f16(m, b, a); }
    static M lt(R a, R b) { return vcltq_f16(a, b); }
    static M gt(R a, R b) { return vcgtq_f16(a, b); }
    static M ge(R a, R b) { return vcgeq_f16(a, b); }
    static M eq(R a, R b) { return vceqq_f16(a, b); }
    static M not_le(R a, R b) { return vmvnq_u16(vcleq_f16(a, b)); }
    static M isnan(R a) { return vmvnq_u16(vceqq_f16(a, a)); }
    static M m_or(M a, M b) { return vorrq_u16(a, b); }
    static M m_andnot(M a, M b) { return vbicq_u16(a, b); }
    static M m_none() { return vdupq_n_u16(0); }
    static unsigned bits(M m) {
        const uint16x8_t w = {1, 2, 4, 8, 16, 32, 64, 128};
        return vaddvq_u16(vandq_u16(m, w));
    }

    static E hmax(R v) { return vmaxvq_f16(v); }
    static E first(R v) { return vgetq_lane_f16(v, 0); }
};

static_assert(VecLaneContract<VH, H16>::ok);

template <>
struct VecOf<H16> {
    using type = VH;
};

inline float16_t to_e(H16 v) {
    float16_t h;
    std::memcpy(&h, &v.bits, 2);
    return h;
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
