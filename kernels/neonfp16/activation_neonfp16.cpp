// Float16 activations with native float16 arithmetic where it is exact:
// ReLU (a max, no rounding). Every other activation rounds (alpha*x, exp,
// ...): computed in float16 it would miss the 1-ulp bound of docs/spec.md, so it
// goes to neon's float path.
#include "neonfp16/neonfp16_kernels.hpp"
#include "simd/vec_neon_fp16.hpp"
#include "simd/map.hpp"

namespace simdax::kernels::neonfp16 {

void activation_f16(const void* x, void* y, size_t n, const ActParams* act) {
    if (act->type == SIMDAX_ACTIVATION_RELU) {
        const VH::R zero = VH::zero();
        return map(static_cast<const H16*>(x), static_cast<H16*>(y), n,
                   [zero](VH::R v) { return VH::max(zero, v); });
    }
    neon::activation<neon::F16>(x, y, n, act);
}

}  // namespace simdax::kernels::neonfp16
