// log and log1p on double vectors: the scheme of log_f32.hpp with g of
// degree 9 (relative error 7e-18 for s^2 in [0, 1/9]); about 1 ulp.
// Domains and special values as in log_f32.hpp.
#pragma once

#include "simd/vec.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

namespace log64 {
constexpr double kG[10] = {0x1.5555555555555p-2, 0x1.999999999a3ddp-3, 0x1.24924923d44c6p-3,
                           0x1.c71c727143318p-4, 0x1.745cf0b0e03bdp-4, 0x1.3b18b294bebf9p-4,
                           0x1.10ac75dc602b1p-4, 0x1.eb905e8575054p-5, 0x1.687a6e7c95176p-5,
                           0x1.4b0a26c5f2aefp-4};

inline VD::R two_atanh(VD::R s) {
    const VD::R w = VD::mul(s, s);
    VD::R g = VD::set1(kG[9]);
    for (int i = 8; i >= 0; --i) g = VD::fma(g, w, VD::set1(kG[i]));
    const VD::R a = VD::fma(VD::mul(s, w), g, s);
    return VD::add(a, a);
}
}  // namespace log64

inline VD::R log1p_f64(VD::R u) {
    return log64::two_atanh(VD::div(u, VD::add(VD::set1(2.0), u)));
}

inline VD::R log_f64(VD::R x) {
    VD::R e;
    const VD::R m = VD::frexp_sqrt2(x, e);
    const VD::R f = VD::sub(m, VD::set1(1.0));
    const VD::R l = log64::two_atanh(VD::div(f, VD::add(VD::set1(2.0), f)));
    VD::R r = VD::fma(e, VD::set1(0x1.62e42fefa39efp-1), VD::fma(e, VD::set1(0x1.abc9e3b39803fp-56), l));
    r = VD::blend(VD::eq(x, VD::zero()), r, VD::set1(-__builtin_inf()));
    return VD::blend(VD::not_le(x, VD::set1(0x1.fffffffffffffp+1023)), r, x);
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
