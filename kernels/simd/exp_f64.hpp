// exp and expm1 on double vectors, for the float64 kernels (docs/spec.md:
// relative error <= 1e-12): exp_f32.hpp's scheme with q of degree 9
// (Chebyshev fit, relative error of e^r 1.6e-17 on [-ln2/2, ln2/2]): max
// error about 1 ulp.
// exp_f64: input clamped to [-746, 710]; exp(-inf) = 0, exp(+inf) = +inf,
//   NaN -> NaN; subnormal results round once.
// expm1_f64: relative error about 1 ulp near 0; evaluated at half size like
//   expm1_f32, so above 709.78 it overflows to +inf (input clamped to 710);
//   x <= -709 gives -1.
#pragma once

#include "simd/exp_f32.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

template <>
struct ExpCoeffs<double> {
    static constexpr double kLog2e = 0x1.71547652b82fep+0;
    static constexpr double kLn2Hi = 0x1.62e42fefa39efp-1;
    static constexpr double kLn2Lo = 0x1.abc9e3b39803fp-56;
    static constexpr double kQ[10] = {0x1.0000000000001p-1,  0x1.5555555555556p-3,  0x1.5555555553d68p-5,
                                      0x1.11111111109b5p-7,  0x1.6c16c17889ef1p-10, 0x1.a01a01a7c2efep-13,
                                      0x1.a019b9149a41cp-16, 0x1.71de0db2f6b19p-19, 0x1.28917c89a43a7p-22,
                                      0x1.af389ecfc4b9cp-26};
    static constexpr double kMin = -746.0, kMax = 710.0, kMinM1 = -709.0;
};

inline VD::R exp_f64(VD::R x) { return exp_v<VD>(x); }
inline VD::R expm1_f64(VD::R x) { return expm1_v<VD>(x); }

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
