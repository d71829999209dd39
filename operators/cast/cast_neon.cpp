// neon build of the Cast kernels (operators/cast/simd/).
#include "cast/simd/cast.hpp"
#include "simd/kernel_list.hpp"

namespace simdax::kernels::neon {
SIMDAX_SIMD_INSTANTIATE(SIMDAX_CAST_SLOTS)
}  // namespace simdax::kernels::neon
