// NEON build of the LogSoftmax / Softmax kernels (operators/softmax/simd/).
#include "simd/kernel_list.hpp"
#include "softmax/simd/chunk.hpp"
#include "softmax/simd/cols.hpp"
#include "softmax/simd/cols_states.hpp"
#include "softmax/simd/rows.hpp"

namespace simdax::kernels::neon {
SIMDAX_SIMD_INSTANTIATE(SIMDAX_SOFTMAX_SLOTS)
}  // namespace simdax::kernels::neon
