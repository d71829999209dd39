// NEON build of the activation kernels (kernels/simd/activation.hpp).
#include "simd/activation_kernel.hpp"
#include "simd/kernel_list.hpp"

namespace simdax::kernels::neon {
SIMDAX_SIMD_FOR_EACH_DTYPE(SIMDAX_SIMD_INSTANTIATE_ACTIVATION)
}  // namespace simdax::kernels::neon
