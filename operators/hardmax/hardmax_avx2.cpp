// AVX2 build of the Hardmax kernels (operators/hardmax/hardmax_kernels.hpp).
#include "hardmax/hardmax_kernels.hpp"
#include "simd/kernel_list.hpp"

namespace simdax::kernels::avx2 {
SIMDAX_SIMD_INSTANTIATE(SIMDAX_HARDMAX_SLOTS)
}  // namespace simdax::kernels::avx2
