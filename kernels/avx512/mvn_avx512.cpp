// AVX512 build of the MeanVarianceNormalization kernels (kernels/simd/mvn/).
#include "simd/kernel_list.hpp"
#include "simd/mvn/chunk_moments.hpp"
#include "simd/mvn/chunk_normalize.hpp"
#include "simd/mvn/cols.hpp"
#include "simd/mvn/rows.hpp"

namespace simdax::kernels::avx512 {
SIMDAX_SIMD_FOR_EACH_DTYPE(SIMDAX_SIMD_INSTANTIATE_MVN)
}  // namespace simdax::kernels::avx512
