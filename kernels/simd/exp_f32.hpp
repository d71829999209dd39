// exp and expm1 on float vectors (VF), and the scheme exp_f64.hpp shares
// for double vectors (VD), one template over the traits.
//
// Algorithm: n = rint(x * log2(e)); r = x - n*ln2 with ln2 split in two
// (Cody-Waite, FMA), so |r| <= ln2/2; e^r = 1 + r + r^2*q(r) with q a
// Chebyshev fit of (e^r - 1 - r)/r^2 on [-ln2/2, ln2/2] (float: degree 4,
// relative error of the polynomial 1e-8, tools: mpmath chebyfit); the
// result is ldexp(e^r, n).
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

// The constants of one element type: kLog2e, kLn2Hi + kLn2Lo = ln2,
// q(r) = (e^r - 1 - r) / r^2 in ascending powers kQ, the clamps of exp
// [kMin, kMax] and of expm1 [kMinM1, kMax].
template <class E>
struct ExpCoeffs;

template <>
struct ExpCoeffs<float> {
    static constexpr float kLog2e = 0x1.715476p+0f;
    static constexpr float kLn2Hi = 0x1.62e430p-1f;
    static constexpr float kLn2Lo = -0x1.05c610p-29f;
    static constexpr float kQ[5] = {0x1.000000p-1f, 0x1.5554dep-3f, 0x1.55551ap-5f, 0x1.120b62p-7f,
                                    0x1.6d10fcp-10f};
    static constexpr float kMin = -104.0f, kMax = 89.0f, kMinM1 = -88.0f;
};

namespace exp_detail {
// Reduction: returns r, sets n (integral).
template <class V, class C = ExpCoeffs<typename V::E>>
inline typename V::R reduce(typename V::R x, typename V::R& n) {
    n = V::round(V::mul(x, V::set1(C::kLog2e)));
    const typename V::R r = V::fnma(n, V::set1(C::kLn2Hi), x);
    return V::fnma(n, V::set1(C::kLn2Lo), r);
}
}  // namespace exp_detail

template <class V, class C = ExpCoeffs<typename V::E>>
inline typename V::R exp_v(typename V::R x) {
    using E = typename V::E;
    // The clamps keep a NaN: it is the second operand.
    x = V::max(V::set1(C::kMin), V::min(V::set1(C::kMax), x));
    typename V::R n;
    const typename V::R r = exp_detail::reduce<V>(x, n);
    // 1 + r + r^2 q(r) in Horner form.
    typename V::R p = V::fma(horner<V>(r, C::kQ), r, V::set1(E(1)));
    p = V::fma(p, r, V::set1(E(1)));
    return V::ldexp(p, n);
}

template <class V, class C = ExpCoeffs<typename V::E>>
inline typename V::R expm1_v(typename V::R x) {
    using R = typename V::R;
    using E = typename V::E;
    x = V::max(V::set1(C::kMinM1), V::min(V::set1(C::kMax), x));
    R n;
    const R r = exp_detail::reduce<V>(x, n);
    const R em = V::fma(V::mul(r, r), horner<V>(r, C::kQ), r);  // e^r - 1
    const R h = V::ldexp(V::set1(E(0.5)), n);                   // 2^(n-1), exact
    const R half = V::fma(h, em, V::sub(h, V::set1(E(0.5))));
    return V::add(half, half);
}

inline VF::R exp_f32(VF::R x) { return exp_v<VF>(x); }
inline VF::R expm1_f32(VF::R x) { return expm1_v<VF>(x); }

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
