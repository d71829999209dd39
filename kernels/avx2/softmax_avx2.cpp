// AVX2 build of the LogSoftmax / Softmax kernels (kernels/simd/softmax/).
#include "simd/kernel_list.hpp"
#include "simd/softmax/chunk.hpp"
#include "simd/softmax/cols.hpp"
#include "simd/softmax/cols_states.hpp"
#include "simd/softmax/rows.hpp"

namespace simdax::kernels::avx2 {
SIMDAX_SIMD_FOR_EACH_DTYPE(SIMDAX_SIMD_INSTANTIATE_SOFTMAX)
}  // namespace simdax::kernels::avx2
