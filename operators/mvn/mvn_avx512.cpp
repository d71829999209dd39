// AVX512 build of the MeanVarianceNormalization kernels (operators/mvn/simd/).
#include "simd/kernel_list.hpp"
#include "mvn/simd/chunk_moments.hpp"
#include "mvn/simd/chunk_normalize.hpp"
#include "mvn/simd/cols.hpp"
#include "mvn/simd/rows.hpp"

namespace simdax::kernels::avx512 {
SIMDAX_SIMD_INSTANTIATE(SIMDAX_MVN_SLOTS)
}  // namespace simdax::kernels::avx512
