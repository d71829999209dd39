// AVX512 build of the activation kernels (kernels/simd/activation.hpp).
#include "activation/activation_kernel.hpp"
#include "simd/kernel_list.hpp"

namespace simdax::kernels::avx512 {
SIMDAX_SIMD_INSTANTIATE(SIMDAX_ACTIVATION_SLOTS)
}  // namespace simdax::kernels::avx512
