// Vector traits for aarch64 Advanced SIMD (NEON): VF = 4 x float, VD = 2 x
// double. Same interface and conventions as vec_avx512.hpp (read its
// header), with these differences that the kernels are written to allow:
//  - max/min are FMAX/FMIN: a NaN in *either* operand is returned (x86
//    returns the second operand), so a NaN that must survive still does;
//    max(+0, -0) = +0.
//  - Masks are vectors of all-ones lanes; bits() packs them like movemask.
//  - Tails load and store exactly the n elements with single-lane or
//    half-vector accesses (LD1/ST1 lane forms), never a byte beyond them.
//  - stream() is an ordinary store: Arm cores switch to write-streaming
//    (no line fill) by themselves on runs of full-line stores, and there is
//    no single-register non-temporal store.
//  - float16 <-> float conversion (FCVTL/FCVTN) is baseline ARMv8.0; it
//    rounds to nearest-even (FPCR default) and keeps NaN. No FP16
//    arithmetic here: that is vec_neon_fp16.hpp, for the neonfp16 TUs only.
#pragma once

#include <arm_neon.h>

#include <cstring>

#include "simd/dtypes.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

namespace neon_bits {
// Storage types are a single uint16_t: their arrays are uint16_t arrays.
template <class H>
inline const uint16_t* u16(const H* p) { return reinterpret_cast<const uint16_t*>(p); }
template <class H>
inline uint16_t* u16(H* p) { return reinterpret_cast<uint16_t*>(p); }

// Four 16-bit lanes from p[0..n), n <= 4; missing lanes are 0.
inline uint16x4_t load4n(const uint16_t* p, size_t n) {
    uint16x4_t r = vdup_n_u16(0);
    switch (n) {
        case 0: return r;
        case 1: return vld1_lane_u16(p, r, 0);
        case 2: return vreinterpret_u16_u32(vld1_lane_u32(reinterpret_cast<const uint32_t*>(p),
                                                          vreinterpret_u32_u16(r), 0));
        case 3:
            r = vreinterpret_u16_u32(vld1_lane_u32(reinterpret_cast<const uint32_t*>(p),
                                                   vreinterpret_u32_u16(r), 0));
            return vld1_lane_u16(p + 2, r, 2);
        default: return vld1_u16(p);
    }
}
inline void store4n(uint16_t* p, uint16x4_t v, size_t n) {
    switch (n) {
        case 0: return;
        case 1: return vst1_lane_u16(p, v, 0);
        case 2: return vst1_lane_u32(reinterpret_cast<uint32_t*>(p), vreinterpret_u32_u16(v), 0);
        case 3:
            vst1_lane_u32(reinterpret_cast<uint32_t*>(p), vreinterpret_u32_u16(v), 0);
            return vst1_lane_u16(p + 2, v, 2);
        default: return vst1_u16(p, v);
    }
}
}  // namespace neon_bits

struct VD {
    using E = double;
    using R = float64x2_t;
    using M = uint64x2_t;
    static constexpr size_t N = 2;

    static R set1(double v) { return vdupq_n_f64(v); }
    static R zero() { return vdupq_n_f64(0.0); }
    static M lanes(size_t n) {
        const int64x2_t idx = {0, 1};
        return vcltq_s64(idx, vdupq_n_s64(int64_t(n > N ? N : n)));
    }

    static R load(const double* p) { return vld1q_f64(p); }
    static R loadn(const double* p, size_t n, R fill) {
        if (n >= N) return vld1q_f64(p);
        return n ? vld1q_lane_f64(p, fill, 0) : fill;
    }
    static void store(double* p, R v) { vst1q_f64(p, v); }
    static void stream(double* p, R v) { vst1q_f64(p, v); }
    static void storen(double* p, R v, size_t n) {
        if (n >= N)
            vst1q_f64(p, v);
        else if (n)
            vst1q_lane_f64(p, v, 0);
    }

    static R add(R a, R b) { return vaddq_f64(a, b); }
    static R sub(R a, R b) { return vsubq_f64(a, b); }
    static R mul(R a, R b) { return vmulq_f64(a, b); }
    static R div(R a, R b) { return vdivq_f64(a, b); }
    static R sqrt(R a) { return vsqrtq_f64(a); }
    static R fma(R a, R b, R c) { return vfmaq_f64(c, a, b); }   // a*b + c
    static R fnma(R a, R b, R c) { return vfmsq_f64(c, a, b); }  // c - a*b
    static R max(R a, R b) { return vmaxq_f64(a, b); }
    static R min(R a, R b) { return vminq_f64(a, b); }
    static R abs(R a) { return vabsq_f64(a); }
    static R sign(R a) {
        return vreinterpretq_f64_u64(vandq_u64(vreinterpretq_u64_f64(a), vdupq_n_u64(1ull << 63)));
    }
    static R xor_(R a, R b) {
        return vreinterpretq_f64_u64(veorq_u64(vreinterpretq_u64_f64(a), vreinterpretq_u64_f64(b)));
    }

    static R blend(M m, R a, R b) { return vbslq_f64(m, b, a); }
    static M lt(R a, R b) { return vcltq_f64(a, b); }
    static M le(R a, R b) { return vcleq_f64(a, b); }
    static M gt(R a, R b) { return vcgtq_f64(a, b); }
    static M ge(R a, R b) { return vcgeq_f64(a, b); }
    static M eq(R a, R b) { return vceqq_f64(a, b); }
    static M m_not(M a) { return vreinterpretq_u64_u32(vmvnq_u32(vreinterpretq_u32_u64(a))); }
    static M not_le(R a, R b) { return m_not(vcleq_f64(a, b)); }  // a > b or NaN
    static M isnan(R a) { return m_not(vceqq_f64(a, a)); }
    static M m_and(M a, M b) { return vandq_u64(a, b); }
    static M m_or(M a, M b) { return vorrq_u64(a, b); }
    static M m_andnot(M a, M b) { return vbicq_u64(a, b); }  // a and not b
    static M m_none() { return vdupq_n_u64(0); }
    static unsigned bits(M m) {
        const uint64x2_t w = {1, 2};
        return unsigned(vaddvq_u64(vandq_u64(m, w)));
    }

    static double hmax(R v) { return vmaxvq_f64(v); }
    static double hsum(R v) { return vaddvq_f64(v); }
    static double first(R v) { return vgetq_lane_f64(v, 0); }

    static R round(R v) { return vrndnq_f64(v); }  // ties to even
    // 2^n in two factors, so n in [-1075, 1024] rounds once (see vec_avx2.hpp).
    static R ldexp(R p, R n) {
        const int64x2_t ni = vcvtq_s64_f64(n);
        const int64x2_t n1 = vshrq_n_s64(ni, 1);
        const int64x2_t n2 = vsubq_s64(ni, n1);
        const int64x2_t bias = vdupq_n_s64(1023);
        const R s1 = vreinterpretq_f64_s64(vshlq_n_s64(vaddq_s64(n1, bias), 52));
        const R s2 = vreinterpretq_f64_s64(vshlq_n_s64(vaddq_s64(n2, bias), 52));
        return mul(mul(p, s1), s2);
    }
    static R frexp_sqrt2(R x, R& e) {
        const uint64x2_t b = vreinterpretq_u64_f64(x);
        e = vcvtq_f64_s64(vsubq_s64(vreinterpretq_s64_u64(vshrq_n_u64(b, 52)), vdupq_n_s64(1023)));
        R m = vreinterpretq_f64_u64(vorrq_u64(vandq_u64(b, vdupq_n_u64(0x000FFFFFFFFFFFFFull)),
                                              vdupq_n_u64(0x3FF0000000000000ull)));
        const M big = gt(m, set1(0x1.6a09e667f3bcdp+0));
        m = blend(big, m, mul(m, set1(0.5)));
        e = add(e, vreinterpretq_f64_u64(vandq_u64(big, vreinterpretq_u64_f64(set1(1.0)))));
        return m;
    }
};

struct VF {
    using E = float;
    using R = float32x4_t;
    using M = uint32x4_t;
    static constexpr size_t N = 4;

    static R set1(float v) { return vdupq_n_f32(v); }
    static R zero() { return vdupq_n_f32(0.0f); }
    static M lanes(size_t n) {
        const int32x4_t idx = {0, 1, 2, 3};
        return vcltq_s32(idx, vdupq_n_s32(int(n > N ? N : n)));
    }

    static R load(const float* p) { return vld1q_f32(p); }
    static R loadn(const float* p, size_t n, R fill) {
        switch (n) {
            case 0: return fill;
            case 1: return vld1q_lane_f32(p, fill, 0);
            case 2: return vcombine_f32(vld1_f32(p), vget_high_f32(fill));
            case 3: return vld1q_lane_f32(p + 2, vcombine_f32(vld1_f32(p), vget_high_f32(fill)), 2);
            default: return vld1q_f32(p);
        }
    }
    static void store(float* p, R v) { vst1q_f32(p, v); }
    static void storen(float* p, R v, size_t n) {
        switch (n) {
            case 0: return;
            case 1: return vst1q_lane_f32(p, v, 0);
            case 2: return vst1_f32(p, vget_low_f32(v));
            case 3:
                vst1_f32(p, vget_low_f32(v));
                return vst1q_lane_f32(p + 2, v, 2);
            default: return vst1q_f32(p, v);
        }
    }
    // See the header: ordinary stores.
    static void stream(float* p, R v) { store(p, v); }
    static void stream(F16* p, R v) { store(p, v); }
    static void stream(BF16* p, R v) { store(p, v); }

    // float16: FCVTL / FCVTN (round to nearest-even, NaN kept quiet).
    static uint16x4_t to_f16(R v) { return vreinterpret_u16_f16(vcvt_f16_f32(v)); }
    static R from_f16(uint16x4_t h) { return vcvt_f32_f16(vreinterpret_f16_u16(h)); }
    static R load(const F16* p) { return from_f16(vld1_u16(neon_bits::u16(p))); }
    static R loadn(const F16* p, size_t n, R fill) {
        if (n >= N) return load(p);
        return blend(lanes(n), fill, from_f16(neon_bits::load4n(neon_bits::u16(p), n)));
    }
    static void store(F16* p, R v) { vst1_u16(neon_bits::u16(p), to_f16(v)); }
    static void storen(F16* p, R v, size_t n) { neon_bits::store4n(neon_bits::u16(p), to_f16(v), n); }

    // bfloat16: widen by a shift; narrow with round-to-nearest-even on the
    // bit pattern (exact for subnormals and overflow to inf), NaN kept quiet.
    // (FEAT_BF16's BFCVTN is not baseline.)
    static R from_bf16(uint16x4_t h) { return vreinterpretq_f32_u32(vshll_n_u16(h, 16)); }
    static uint16x4_t to_bf16(R v) {
        const uint32x4_t b = vreinterpretq_u32_f32(v);
        const uint32x4_t odd = vandq_u32(vshrq_n_u32(b, 16), vdupq_n_u32(1));
        const uint32x4_t r = vaddq_u32(b, vaddq_u32(odd, vdupq_n_u32(0x7FFF)));
        const uint32x4_t q = vorrq_u32(b, vdupq_n_u32(0x00400000));
        return vshrn_n_u32(vbslq_u32(isnan(v), q, r), 16);
    }
    static R load(const BF16* p) { return from_bf16(vld1_u16(neon_bits::u16(p))); }
    static R loadn(const BF16* p, size_t n, R fill) {
        if (n >= N) return load(p);
        return blend(lanes(n), fill, from_bf16(neon_bits::load4n(neon_bits::u16(p), n)));
    }
    static void store(BF16* p, R v) { vst1_u16(neon_bits::u16(p), to_bf16(v)); }
    static void storen(BF16* p, R v, size_t n) { neon_bits::store4n(neon_bits::u16(p), to_bf16(v), n); }

    static R add(R a, R b) { return vaddq_f32(a, b); }
    static R sub(R a, R b) { return vsubq_f32(a, b); }
    static R mul(R a, R b) { return vmulq_f32(a, b); }
    static R div(R a, R b) { return vdivq_f32(a, b); }
    static R sqrt(R a) { return vsqrtq_f32(a); }
    static R fma(R a, R b, R c) { return vfmaq_f32(c, a, b); }   // a*b + c
    static R fnma(R a, R b, R c) { return vfmsq_f32(c, a, b); }  // c - a*b
    static R max(R a, R b) { return vmaxq_f32(a, b); }
    static R min(R a, R b) { return vminq_f32(a, b); }
    static R abs(R a) { return vabsq_f32(a); }
    static R sign(R a) {
        return vreinterpretq_f32_u32(vandq_u32(vreinterpretq_u32_f32(a), vdupq_n_u32(0x80000000u)));
    }
    static R xor_(R a, R b) {
        return vreinterpretq_f32_u32(veorq_u32(vreinterpretq_u32_f32(a), vreinterpretq_u32_f32(b)));
    }

    static R blend(M m, R a, R b) { return vbslq_f32(m, b, a); }
    static M lt(R a, R b) { return vcltq_f32(a, b); }
    static M le(R a, R b) { return vcleq_f32(a, b); }
    static M gt(R a, R b) { return vcgtq_f32(a, b); }
    static M ge(R a, R b) { return vcgeq_f32(a, b); }
    static M eq(R a, R b) { return vceqq_f32(a, b); }
    static M not_le(R a, R b) { return vmvnq_u32(vcleq_f32(a, b)); }  // a > b or NaN
    static M isnan(R a) { return vmvnq_u32(vceqq_f32(a, a)); }
    static M m_and(M a, M b) { return vandq_u32(a, b); }
    static M m_or(M a, M b) { return vorrq_u32(a, b); }
    static M m_andnot(M a, M b) { return vbicq_u32(a, b); }  // a and not b
    static M m_none() { return vdupq_n_u32(0); }
    static unsigned bits(M m) {
        const uint32x4_t w = {1, 2, 4, 8};
        return vaddvq_u32(vandq_u32(m, w));
    }

    static float hmax(R v) { return vmaxvq_f32(v); }
    static float hsum(R v) { return vaddvq_f32(v); }
    static float first(R v) { return vgetq_lane_f32(v, 0); }

    static R round(R v) { return vrndnq_f32(v); }  // ties to even
    // 2^n in two factors (n in [-150, 128]): see VD::ldexp.
    static R ldexp(R p, R n) {
        const int32x4_t ni = vcvtq_s32_f32(n);
        const int32x4_t n1 = vshrq_n_s32(ni, 1);
        const int32x4_t n2 = vsubq_s32(ni, n1);
        const int32x4_t bias = vdupq_n_s32(127);
        const R s1 = vreinterpretq_f32_s32(vshlq_n_s32(vaddq_s32(n1, bias), 23));
        const R s2 = vreinterpretq_f32_s32(vshlq_n_s32(vaddq_s32(n2, bias), 23));
        return mul(mul(p, s1), s2);
    }
    static R frexp_sqrt2(R x, R& e) {
        const uint32x4_t b = vreinterpretq_u32_f32(x);
        e = vcvtq_f32_s32(vsubq_s32(vreinterpretq_s32_u32(vshrq_n_u32(b, 23)), vdupq_n_s32(127)));
        R m = vreinterpretq_f32_u32(vorrq_u32(vandq_u32(b, vdupq_n_u32(0x007FFFFF)),
                                              vdupq_n_u32(0x3F800000)));
        const M big = gt(m, set1(0x1.6a09e6p+0f));
        m = blend(big, m, mul(m, set1(0.5f)));
        e = add(e, vreinterpretq_f32_u32(vandq_u32(big, vreinterpretq_u32_f32(set1(1.0f)))));
        return m;
    }
    // exp2_f32.hpp's split (the AVX2 form; see vec_avx512.hpp): n = rint(t)
    // by the 1.5*2^23 shifter, which leaves n in the low bits of k; f = t - n
    // in [-1/2, 1/2]. t is clamped to -126 first (NaN kept), and exp2_scale
    // adds n to the exponent field of p.
    static constexpr bool kExp2FloorFrac = false;
    static constexpr bool kExp2Exact = false;
    static R exp2_split(R t, R& f) {
        t = max(set1(-126.0f), t);
        const R k = add(t, set1(0x1.8p23f));
        f = sub(t, sub(k, set1(0x1.8p23f)));
        return k;
    }
    static R exp2_scale(R p, R k) {
        return vreinterpretq_f32_s32(
            vaddq_s32(vreinterpretq_s32_f32(p), vshlq_n_s32(vreinterpretq_s32_f32(k), 23)));
    }
    // The horizontal max / sum in every lane.
    static R hmax_all(R v) { return vdupq_n_f32(vmaxvq_f32(v)); }
    static R hsum_all(R v) { return vdupq_n_f32(vaddvq_f32(v)); }

    // exp_nonpos_f32.hpp: t = x*log2e + 1.5*2^23 holds n = rint(x*log2e) in
    // its low mantissa bits; (bits(t) + 127) << 23 is 2^n for n >= -126.
    static R pow2_shifted(R t) {
        return vreinterpretq_f32_s32(
            vshlq_n_s32(vaddq_s32(vreinterpretq_s32_f32(t), vdupq_n_s32(127)), 23));
    }

    static void widen(R v, VD::R& lo, VD::R& hi) {
        lo = vcvt_f64_f32(vget_low_f32(v));
        hi = vcvt_high_f64_f32(v);
    }
    static R narrow(VD::R lo, VD::R hi) { return vcvt_high_f32_f64(vcvt_f32_f64(lo), hi); }
};

// One float16 element to float (scalar FCVT, baseline).
inline float f16_to_float(uint16_t bits) {
    __fp16 h;  // storage-only type without +fp16: converts through FCVT
    std::memcpy(&h, &bits, 2);
    return float(h);
}

// map.hpp's streamed outputs need no fence: stream() is an ordinary store.
inline void stream_fence() {}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
