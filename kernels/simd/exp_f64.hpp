// exp and expm1 on double vectors, for the float64 kernels (docs/spec.md: relative
// error <= 1e-12).
//
// Same scheme as exp_f32.hpp with q of degree 9 (Chebyshev fit, relative
// error of e^r 1.6e-17 on [-ln2/2, ln2/2]): max error about 1 ulp.
// exp_f64: input clamped to [-746, 710]; exp(-inf) = 0, exp(+inf) = +inf,
//   NaN -> NaN; subnormal results round once.
// expm1_f64: relative error about 1 ulp near 0; evaluated at half size like
//   expm1_f32, so above 709.78 it overflows to +inf (input clamped to 710);
//   x <= -709 gives -1.
#pragma once

#include "simd/vec.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

namespace exp64 {
constexpr double kLog2e = 0x1.71547652b82fep+0;
constexpr double kLn2Hi = 0x1.62e42fefa39efp-1;
constexpr double kLn2Lo = 0x1.abc9e3b39803fp-56;
constexpr double kQ[10] = {0x1.0000000000001p-1, 0x1.5555555555556p-3, 0x1.5555555553d68p-5,
                           0x1.11111111109b5p-7, 0x1.6c16c17889ef1p-10, 0x1.a01a01a7c2efep-13,
                           0x1.a019b9149a41cp-16, 0x1.71de0db2f6b19p-19, 0x1.28917c89a43a7p-22,
                           0x1.af389ecfc4b9cp-26};

inline VD::R reduce(VD::R x, VD::R& n) {
    n = VD::round(VD::mul(x, VD::set1(kLog2e)));
    VD::R r = VD::fnma(n, VD::set1(kLn2Hi), x);
    return VD::fnma(n, VD::set1(kLn2Lo), r);
}
inline VD::R q(VD::R r) {
    VD::R p = VD::set1(kQ[9]);
    for (int i = 8; i >= 0; --i) p = VD::fma(p, r, VD::set1(kQ[i]));
    return p;
}
}  // namespace exp64

inline VD::R exp_f64(VD::R x) {
    x = VD::max(VD::set1(-746.0), VD::min(VD::set1(710.0), x));
    VD::R n;
    const VD::R r = exp64::reduce(x, n);
    VD::R p = VD::fma(exp64::q(r), r, VD::set1(1.0));
    p = VD::fma(p, r, VD::set1(1.0));
    return VD::ldexp(p, n);
}

inline VD::R expm1_f64(VD::R x) {
    x = VD::max(VD::set1(-709.0), VD::min(VD::set1(710.0), x));
    VD::R n;
    const VD::R r = exp64::reduce(x, n);
    const VD::R em = VD::fma(VD::mul(r, r), exp64::q(r), r);
    const VD::R h = VD::ldexp(VD::set1(0.5), n);  // 2^(n-1), finite for n = 1024
    const VD::R half = VD::fma(h, em, VD::sub(h, VD::set1(0.5)));
    return VD::add(half, half);
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
