// log and log1p on double vectors: log_f32.hpp's scheme with g of degree 9
// (relative error 7e-18 for s^2 in [0, 1/9]); about 1 ulp. Domains and
// special values as in log_f32.hpp.
#pragma once

#include "simd/log_f32.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

template <>
struct LogCoeffs<double> {
    static constexpr double kG[10] = {0x1.5555555555555p-2, 0x1.999999999a3ddp-3, 0x1.24924923d44c6p-3,
                                      0x1.c71c727143318p-4, 0x1.745cf0b0e03bdp-4, 0x1.3b18b294bebf9p-4,
                                      0x1.10ac75dc602b1p-4, 0x1.eb905e8575054p-5, 0x1.687a6e7c95176p-5,
                                      0x1.4b0a26c5f2aefp-4};
    static constexpr double kLn2Hi = 0x1.62e42fefa39efp-1;
    static constexpr double kLn2Lo = 0x1.abc9e3b39803fp-56;
};

inline VD::R log1p_f64(VD::R u) { return log1p_v<VD>(u); }
inline VD::R log_f64(VD::R x) { return log_v<VD>(x); }

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
