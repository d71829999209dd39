// NEON build of the MeanVarianceNormalization kernels (kernels/simd/mvn.hpp).
#include "simd/kernel_list.hpp"
#include "simd/mvn.hpp"

namespace simdax::kernels::neon {
SIMDAX_SIMD_FOR_EACH_DTYPE(SIMDAX_SIMD_INSTANTIATE_MVN)
}  // namespace simdax::kernels::neon
