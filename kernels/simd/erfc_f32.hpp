// erfc(z) for z >= 0 on float vectors, with small *relative* error, so that
// GELU's negative side, 0.5*x*erfc(|x|/sqrt 2), keeps its digits where
// 1 + erf would cancel.
//
// erfc(z) = t * exp(G(t) - z^2), t = 1/(1 + z/2). G is a degree-10
// Chebyshev fit in u = (12t - 7)/5 (t in [1/6, 1], i.e. z in [0, 10]) of
// log(erfc(z)/t) + z^2: absolute error 3.5e-8, so erfc has a relative error
// of a few ulp (plus 0.5 ulp of z^2 carried by exp). z is clamped to 10.5,
// where erfc is already below the float range. NaN -> NaN.
#pragma once

#include "simd/exp_f32.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

namespace erfc32 {
constexpr float kG[11] = {-0x1.1e0036p-1f,  0x1.23ff4ap-1f,  0x1.01f718p-6f,   -0x1.e2d79ap-6f,
                          -0x1.11d1cep-10f, 0x1.e5f3bcp-9f,  -0x1.24521ap-12f, -0x1.182ae4p-11f,
                          0x1.171272p-13f,  0x1.cc6866p-15f, -0x1.94dee6p-16f};
}  // namespace erfc32

inline VF::R erfc_f32(VF::R z) {
    z = VF::min(VF::set1(10.5f), z);
    const VF::R t = VF::div(VF::set1(1.0f), VF::fma(z, VF::set1(0.5f), VF::set1(1.0f)));
    const VF::R u = VF::fma(t, VF::set1(2.4f), VF::set1(-1.4f));
    return VF::mul(t, exp_f32(VF::fnma(z, z, horner<VF>(u, erfc32::kG))));
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
