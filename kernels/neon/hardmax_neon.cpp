// NEON build of the Hardmax kernels (kernels/simd/hardmax.hpp).
#include "simd/hardmax.hpp"
#include "simd/kernel_list.hpp"

namespace simdax::kernels::neon {
SIMDAX_SIMD_FOR_EACH_DTYPE(SIMDAX_SIMD_INSTANTIATE_HARDMAX)
}  // namespace simdax::kernels::neon
