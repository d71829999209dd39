// AVX512 build of the LogSoftmax / Softmax kernels (kernels/simd/softmax_*.hpp).
#include "simd/kernel_list.hpp"
#include "simd/softmax_cols.hpp"
#include "simd/softmax_rows.hpp"
#include "simd/softmax_fused.hpp"

namespace simdax::kernels::avx512 {
SIMDAX_SIMD_FOR_EACH_DTYPE(SIMDAX_SIMD_INSTANTIATE_SOFTMAX)
}  // namespace simdax::kernels::avx512
