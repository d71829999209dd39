// log and log1p on float vectors, both built on one kernel:
// log1p(u) = 2*atanh(s), s = u / (2 + u), evaluated as 2*(s + s^3 g(s^2))
// with g a degree-4 Chebyshev fit of (atanh(s)/s - 1)/s^2 for s^2 in
// [0, 1/9] (relative error 1e-9; the division adds 0.5 ulp).
//
// log1p_f32(u): u in [0, 1] (s <= 1/3); relative error about 1 ulp, also for
//   tiny u (log1p(u) = u there). NaN -> NaN.
// log_f32(x): x = m * 2^e, m in [sqrt(1/2), sqrt(2)), log x = e*ln2 +
//   log1p(m - 1); for positive normal x about 1 ulp. log(0) = -inf,
//   log(+inf) = +inf, NaN -> NaN. Subnormal and negative x are not handled
//   (the callers pass sums >= 1).
#pragma once

#include "simd/vec.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

namespace log32 {
constexpr float kG0 = 0x1.555556p-2f, kG1 = 0x1.9998d4p-3f, kG2 = 0x1.24c926p-3f,
                kG3 = 0x1.bc8cf8p-4f, kG4 = 0x1.dba260p-4f;

// 2*atanh(s) for |s| <= 1/3.
inline VF::R two_atanh(VF::R s) {
    const VF::R w = VF::mul(s, s);
    VF::R g = VF::fma(VF::set1(kG4), w, VF::set1(kG3));
    g = VF::fma(g, w, VF::set1(kG2));
    g = VF::fma(g, w, VF::set1(kG1));
    g = VF::fma(g, w, VF::set1(kG0));
    const VF::R a = VF::fma(VF::mul(s, w), g, s);
    return VF::add(a, a);
}
}  // namespace log32

inline VF::R log1p_f32(VF::R u) {
    return log32::two_atanh(VF::div(u, VF::add(VF::set1(2.0f), u)));
}

inline VF::R log_f32(VF::R x) {
    VF::R e;
    const VF::R m = VF::frexp_sqrt2(x, e);
    const VF::R f = VF::sub(m, VF::set1(1.0f));
    const VF::R l = log32::two_atanh(VF::div(f, VF::add(VF::set1(2.0f), f)));
    VF::R r = VF::fma(e, VF::set1(0x1.62e430p-1f), VF::fma(e, VF::set1(-0x1.05c610p-29f), l));
    r = VF::blend(VF::eq(x, VF::zero()), r, VF::set1(-__builtin_inff()));
    return VF::blend(VF::not_le(x, VF::set1(0x1.fffffep+127f)), r, x);  // +inf, NaN
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
