// The exponential of Softmax's sum pass for each compute type (SmxMath):
// float32 folds the max into the base change (blocks.hpp says how and
// when), float64 never does. Apart from the block passes so that each
// file holds one step.
#pragma once

#include <cmath>

#include "simd/exp2_f32.hpp"
#include "simd/exp_f64.hpp"
#include "simd/log_f32.hpp"
#include "simd/log_f64.hpp"
#include "simd/vec.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

// The exp of the sum pass for each compute type.
template <class V>
struct SmxMath;

template <>
struct SmxMath<VF> {
    using R = VF::R;
    static constexpr bool kCanFold = true;
    // |lo| <= ulp(m*log2e)/2 <= 1/4 below this: 2^lo stays a harmless common factor
    // and t = x*log2e - hi keeps its relative rounding near the max. Degree 3
    // (float16/bfloat16) computes the max's own term 2^lo to its slope error
    // times lo (exp2_f32.hpp): |M| < 2^11 keeps |lo| <= 2^-13.
    template <int DEG>
    static constexpr float kFoldLimit = DEG == 3 ? 0x1p11f : 0x1p22f;
    template <int DEG>
    static bool foldable(float m) {
        return m < kFoldLimit<DEG> && m > -kFoldLimit<DEG>;
    }  // false for NaN
    // 2^t, t = x*log2e + nh (FOLD, nh = -hi) or (x + nh)*log2e (nh = -M).
    template <bool FOLD, int DEG = 5>
    static SIMDAX_INLINE R ex(R x, R nh) {
        const R l2e = VF::set1(exp2f32::kLog2e);
        return exp2_nonpos_f32<DEG>(FOLD ? VF::fma(x, l2e, nh) : VF::mul(VF::add(x, nh), l2e));
    }
    // s + 2^t, t as in ex: for sums whose terms are not kept.
    template <bool FOLD, int DEG = 5>
    static SIMDAX_INLINE R ex_add(R x, R nh, R s) {
        const R l2e = VF::set1(exp2f32::kLog2e);
        return exp2_nonpos_add_f32<DEG>(FOLD ? VF::fma(x, l2e, nh) : VF::mul(VF::add(x, nh), l2e), s);
    }
    // hi for a max m, and the factor that moves a sum from hi_old to hi_new.
    template <bool FOLD>
    static float hi_of(float m) {
        return FOLD ? m * exp2f32::kLog2e : m;
    }
    template <bool FOLD>
    static float rescale(float hi_old, float hi_new) {
        const float t = FOLD ? hi_old - hi_new : (hi_old - hi_new) * exp2f32::kLog2e;
        return VF::first(exp2_nonpos_f32(VF::set1(t)));
    }
    // lo = m*log2e - hi exactly (FOLD), else 0; its natural-log weight.
    template <bool FOLD>
    static float lo_ln(float m, float hi) {
        if (!FOLD) return 0.0f;
        return std::fma(m, exp2f32::kLog2e, -hi) * 0x1.62e430p-1f;
    }
    static R log(R s) { return log_f32(s); }
};

template <>
struct SmxMath<VD> {
    using R = VD::R;
    static constexpr bool kCanFold = false;
    template <int DEG>
    static bool foldable(double) {
        return false;
    }
    template <bool FOLD, int DEG = 5>
    static SIMDAX_INLINE R ex(R x, R nh) {
        return exp_f64(VD::add(x, nh));
    }
    template <bool FOLD, int DEG = 5>
    static SIMDAX_INLINE R ex_add(R x, R nh, R s) {
        return VD::add(s, exp_f64(VD::add(x, nh)));
    }
    template <bool FOLD>
    static double hi_of(double m) {
        return m;
    }
    template <bool FOLD>
    static double rescale(double hi_old, double hi_new) {
        return VD::first(exp_f64(VD::set1(hi_old - hi_new)));
    }
    template <bool FOLD>
    static double lo_ln(double, double) {
        return 0.0;
    }
    static R log(R s) { return log_f64(s); }
};

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
