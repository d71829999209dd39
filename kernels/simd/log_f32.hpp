// log and log1p on float vectors (VF), and the scheme log_f64.hpp shares for
// double vectors (VD), one template over the traits. Both functions are
// built on one kernel:
// log1p(u) = 2*atanh(s), s = u / (2 + u), evaluated as 2*(s + s^3 g(s^2))
// with g a Chebyshev fit of (atanh(s)/s - 1)/s^2 for s^2 in [0, 1/9]
// (float: degree 4, relative error 1e-9; the division adds 0.5 ulp).
//
// log1p_f32(u): u in [0, 1] (s <= 1/3); relative error about 1 ulp, also for
//   tiny u (log1p(u) = u there). NaN -> NaN.
// log_f32(x): x = m * 2^e, m in [sqrt(1/2), sqrt(2)), log x = e*ln2 +
//   log1p(m - 1); for positive normal x about 1 ulp. log(0) = -inf,
//   log(+inf) = +inf, NaN -> NaN. Subnormal and negative x are not handled
//   (the callers pass sums >= 1).
#pragma once

#include <limits>

#include "simd/vec.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

// The constants of one element type: g(w) in ascending powers kG, and
// kLn2Hi + kLn2Lo = ln2.
template <class E>
struct LogCoeffs;

template <>
struct LogCoeffs<float> {
    static constexpr float kG[5] = {0x1.555556p-2f, 0x1.9998d4p-3f, 0x1.24c926p-3f, 0x1.bc8cf8p-4f,
                                    0x1.dba260p-4f};
    static constexpr float kLn2Hi = 0x1.62e430p-1f;
    static constexpr float kLn2Lo = -0x1.05c610p-29f;
};

template <class V, class C = LogCoeffs<typename V::E>>
inline typename V::R log1p_v(typename V::R u) {
    using E = typename V::E;
    const typename V::R s = V::div(u, V::add(V::set1(E(2)), u));  // |s| <= 1/3
    const typename V::R w = V::mul(s, s);
    const typename V::R a = V::fma(V::mul(s, w), horner<V>(w, C::kG), s);
    return V::add(a, a);
}

template <class V, class C = LogCoeffs<typename V::E>>
inline typename V::R log_v(typename V::R x) {
    using E = typename V::E;
    using L = std::numeric_limits<E>;
    typename V::R e;
    const typename V::R m = V::frexp_sqrt2(x, e);
    const typename V::R l = log1p_v<V>(V::sub(m, V::set1(E(1))));
    typename V::R r = V::fma(e, V::set1(C::kLn2Hi), V::fma(e, V::set1(C::kLn2Lo), l));
    r = V::blend(V::eq(x, V::zero()), r, V::set1(-L::infinity()));
    return V::blend(V::not_le(x, V::set1(L::max())), r, x);  // +inf, NaN
}

inline VF::R log1p_f32(VF::R u) { return log1p_v<VF>(u); }
inline VF::R log_f32(VF::R x) { return log_v<VF>(x); }

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
