// exp and expm1 on float vectors.
//
// Algorithm: n = rint(x * log2(e)); r = x - n*ln2 with ln2 split in two
// (Cody-Waite, FMA), so |r| <= ln2/2; e^r = 1 + r + r^2*q(r) with q a degree-4
// Chebyshev fit of (e^r - 1 - r)/r^2 on [-ln2/2, ln2/2] (relative error of
// the polynomial 1e-8, tools: mpmath chebyfit); the result is ldexp(e^r, n).
//
// exp_f32: max error about 1 ulp, including subnormal results. Input clamped
//   to [-104, 89]: results below 2^-150 round to 0, above 88.72 overflow to
//   +inf. exp(-inf) = 0, exp(+inf) = +inf, exp(NaN) = NaN.
// expm1_f32: e^x - 1 as 2^n * (e^r - 1) + (2^n - 1), exact cancellation-free
//   form: relative error about 1 ulp near 0 (n = 0 there). Evaluated at half
//   size and doubled, so 2^(n-1) stays finite for n = 128: above 88.72 the
//   result overflows to +inf (input clamped to 89); x <= -88 gives -1.
//   NaN -> NaN.
#pragma once

#include "simd/vec.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

namespace exp32 {
constexpr float kLog2e = 0x1.715476p+0f;
constexpr float kLn2Hi = 0x1.62e430p-1f;
constexpr float kLn2Lo = -0x1.05c610p-29f;
// q(r) = (e^r - 1 - r) / r^2, ascending powers.
constexpr float kQ0 = 0x1.000000p-1f, kQ1 = 0x1.5554dep-3f, kQ2 = 0x1.55551ap-5f,
                kQ3 = 0x1.120b62p-7f, kQ4 = 0x1.6d10fcp-10f;

// Reduction: returns r, sets n (integral float).
inline VF::R reduce(VF::R x, VF::R& n) {
    n = VF::round(VF::mul(x, VF::set1(kLog2e)));
    VF::R r = VF::fnma(n, VF::set1(kLn2Hi), x);
    return VF::fnma(n, VF::set1(kLn2Lo), r);
}
inline VF::R q(VF::R r) {
    VF::R p = VF::fma(VF::set1(kQ4), r, VF::set1(kQ3));
    p = VF::fma(p, r, VF::set1(kQ2));
    p = VF::fma(p, r, VF::set1(kQ1));
    return VF::fma(p, r, VF::set1(kQ0));
}
}  // namespace exp32

inline VF::R exp_f32(VF::R x) {
    // The clamps keep a NaN: it is the second operand.
    x = VF::max(VF::set1(-104.0f), VF::min(VF::set1(89.0f), x));
    VF::R n;
    const VF::R r = exp32::reduce(x, n);
    // 1 + r + r^2 q(r) in Horner form.
    VF::R p = VF::fma(exp32::q(r), r, VF::set1(1.0f));
    p = VF::fma(p, r, VF::set1(1.0f));
    return VF::ldexp(p, n);
}

inline VF::R expm1_f32(VF::R x) {
    x = VF::max(VF::set1(-88.0f), VF::min(VF::set1(89.0f), x));
    VF::R n;
    const VF::R r = exp32::reduce(x, n);
    const VF::R em = VF::fma(VF::mul(r, r), exp32::q(r), r);  // e^r - 1
    const VF::R h = VF::ldexp(VF::set1(0.5f), n);             // 2^(n-1), exact
    const VF::R half = VF::fma(h, em, VF::sub(h, VF::set1(0.5f)));
    return VF::add(half, half);
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
