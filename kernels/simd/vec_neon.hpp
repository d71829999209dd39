// Vector traits for aarch64 Advanced SIMD (NEON): VF = 4 x float, VD = 2 x
// double, on xsimd's neon64 batches (vec_xsimd.hpp); the vocabulary is
// vec_contract.hpp's. Intrinsics remain for what xsimd 8.1 lacks or does
// differently. Where NEON differs from x86, within the vocabulary:
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

#include "simd/vec_xsimd.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

namespace neon_bits {
// Storage types are a single uint16_t: their arrays are uint16_t arrays.
template <class H>
inline const uint16_t* u16(const H* p) {
    return reinterpret_cast<const uint16_t*>(p);
}
template <class H>
inline uint16_t* u16(H* p) {
    return reinterpret_cast<uint16_t*>(p);
}

// Four 16-bit lanes from p[0..n), n <= 4; missing lanes are 0.
inline uint16x4_t load4n(const uint16_t* p, size_t n) {
    uint16x4_t r = vdup_n_u16(0);
    switch (n) {
        case 0: return r;
        case 1: return vld1_lane_u16(p, r, 0);
        case 2:
            return vreinterpret_u16_u32(
                vld1_lane_u32(reinterpret_cast<const uint32_t*>(p), vreinterpret_u32_u16(r), 0));
        case 3:
            r = vreinterpret_u16_u32(
                vld1_lane_u32(reinterpret_cast<const uint32_t*>(p), vreinterpret_u32_u16(r), 0));
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

// Members where xsimd 8.1's NEON form is not the contract's: its fnma is
// -a*b + c left to the compiler to fuse (or not), its nearbyint a generic
// add-and-subtract sequence (FRINTN is one instruction), and its float sqrt
// a reciprocal-estimate approximation, not IEEE.
struct VD : XsimdIeee<double, xsimd::neon64> {
    static R fnma(R a, R b, R c) { return vfmsq_f64(c, a, b); }  // c - a*b
    static R round(R v) { return vrndnq_f64(v); }                // ties to even

    // Tails (xsimd 8.1 has no masked load/store).
    static M lanes(size_t n) {
        const int64x2_t idx = {0, 1};
        return vcltq_s64(idx, vdupq_n_s64(int64_t(n > N ? N : n)));
    }
    static R loadn(const double* p, size_t n, R fill) {
        if (n >= N) return load(p);
        return n ? R(vld1q_lane_f64(p, fill, 0)) : fill;
    }
    static void storen(double* p, R v, size_t n) {
        if (n >= N)
            store(p, v);
        else if (n)
            vst1q_lane_f64(p, v, 0);
    }
    static void stream(double* p, R v) { store(p, v); }  // see the header

    // Bitmask, horizontal max, lane 0 in a register: none in xsimd 8.1
    // (its get() goes through memory).
    static unsigned bits(M m) {
        const uint64x2_t w = {1, 2};
        return unsigned(vaddvq_u64(vandq_u64(m, w)));
    }
    static double hmax(R v) { return vmaxvq_f64(v); }
    // One instruction each: nothing to save on a short row.
    static double hmax_n(R v, size_t) { return hmax(v); }
    static double hsum_n(R v, size_t) { return hsum(v); }
    static double first(R v) { return vgetq_lane_f64(v, 0); }
};

// XsimdVF's widen and narrow.
struct Halves {
    static float64x2_t lo(float32x4_t v) { return vcvt_f64_f32(vget_low_f32(v)); }
    static float64x2_t hi(float32x4_t v) { return vcvt_high_f64_f32(v); }
    static float32x4_t join(float64x2_t lo, float64x2_t hi) {
        return vcvt_high_f32_f64(vcvt_f32_f64(lo), hi);
    }
};

struct VF : XsimdVF<xsimd::neon64, Halves> {
    using XsimdVF::load;
    using XsimdVF::store;
    static R sqrt(R a) { return vsqrtq_f32(a); }
    static R fnma(R a, R b, R c) { return vfmsq_f32(c, a, b); }  // c - a*b
    static R round(R v) { return vrndnq_f32(v); }                // ties to even

    static M zero_bytes(const uint8_t* p) {
        uint32_t b;
        std::memcpy(&b, p, 4);
        const uint16x4_t w = vget_low_u16(vmovl_u8(vreinterpret_u8_u32(vdup_n_u32(b))));
        return vceqq_u32(vmovl_u16(w), vdupq_n_u32(0));
    }

    // Tails (xsimd 8.1 has no masked load/store).
    static M lanes(size_t n) {
        const int32x4_t idx = {0, 1, 2, 3};
        return vcltq_s32(idx, vdupq_n_s32(int(n > N ? N : n)));
    }
    static R loadn(const float* p, size_t n, R fill) {
        switch (n) {
            case 0: return fill;
            case 1: return vld1q_lane_f32(p, fill, 0);
            case 2: return vcombine_f32(vld1_f32(p), vget_high_f32(fill));
            case 3: return vld1q_lane_f32(p + 2, vcombine_f32(vld1_f32(p), vget_high_f32(fill)), 2);
            default: return load(p);
        }
    }
    static void storen(float* p, R v, size_t n) {
        switch (n) {
            case 0: return;
            case 1: return vst1q_lane_f32(p, v, 0);
            case 2: return vst1_f32(p, vget_low_f32(v));
            case 3: vst1_f32(p, vget_low_f32(v)); return vst1q_lane_f32(p + 2, v, 2);
            default: return store(p, v);
        }
    }
    // See the header: ordinary stores.
    static void stream(float* p, R v) { store(p, v); }

    // float16 and bfloat16 (no 16-bit float types in xsimd 8.1), as four
    // 16-bit lanes. float16: FCVTL / FCVTN (round to nearest-even, NaN kept
    // quiet).
    static R widen16(F16, uint16x4_t h) { return vcvt_f32_f16(vreinterpret_f16_u16(h)); }
    static uint16x4_t narrow16(F16, R v) { return vreinterpret_u16_f16(vcvt_f16_f32(v)); }
    // bfloat16: widen by one shift (VSHLL), narrow XsimdVF's rounding by
    // one narrowing shift (VSHRN). (FEAT_BF16's BFCVTN is not baseline.)
    static R widen16(BF16, uint16x4_t h) { return vreinterpretq_f32_u32(vshll_n_u16(h, 16)); }
    static uint16x4_t narrow16(BF16, R v) { return vshrn_n_u32(vreinterpretq_u32_s32(bf16_upper(v)), 16); }
    template <class H, class = IfHalf<H>>
    static R load(const H* p) {
        return widen16(H{}, vld1_u16(neon_bits::u16(p)));
    }
    template <class H, class = IfHalf<H>>
    static R loadn(const H* p, size_t n, R fill) {
        if (n >= N) return load(p);
        return blend(lanes(n), fill, widen16(H{}, neon_bits::load4n(neon_bits::u16(p), n)));
    }
    template <class H, class = IfHalf<H>>
    static void store(H* p, R v) {
        vst1_u16(neon_bits::u16(p), narrow16(H{}, v));
    }
    template <class H, class = IfHalf<H>>
    static void storen(H* p, R v, size_t n) {
        neon_bits::store4n(neon_bits::u16(p), narrow16(H{}, v), n);
    }
    template <class H, class = IfHalf<H>>
    static void stream(H* p, R v) {
        store(p, v);
    }

    // Bitmask, horizontal max, lane 0 in a register: none in xsimd 8.1.
    static unsigned bits(M m) {
        const uint32x4_t w = {1, 2, 4, 8};
        return vaddvq_u32(vandq_u32(m, w));
    }
    static float hmax(R v) { return vmaxvq_f32(v); }
    // One instruction each: nothing to save on a short row.
    static float hmax_n(R v, size_t) { return hmax(v); }
    static float hsum_n(R v, size_t) { return hsum(v); }
    static float first(R v) { return vgetq_lane_f32(v, 0); }
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
