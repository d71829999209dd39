// Float16 activations with native float16 arithmetic where it is exact:
// ReLU (a max, no rounding). Every other activation rounds (alpha*x, exp,
// ...): computed in float16 it would miss the 1-ulp bound of docs/spec.md,
// so it goes to the base ISA's float path. Include after the ISA's native
// float16 vector header.
#pragma once

#include "simd/f16/f16_kernels.hpp"
#include "simd/map.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

void activation_f16(const void* x, void* y, size_t n, const ActParams* act) {
    if (act->type == SIMDAX_ACTIVATION_RELU) {
        const VecScope scope;
        const VH::R zero = VH::zero();
        return map(static_cast<const H16*>(x), static_cast<H16*>(y), n,
                   [zero](VH::R v) { return VH::max(zero, v); });
    }
    f16_base::activation<f16_base::F16>(x, y, n, act);
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
