// neon build of the LayerNormalization / RMSNormalization kernels (operators/layer_norm/simd/).
#include "layer_norm/simd/norm_kernels.hpp"
#include "layer_norm/simd/rms_rows.hpp"
#include "simd/kernel_list.hpp"

namespace simdax::kernels::neon {
SIMDAX_SIMD_INSTANTIATE(SIMDAX_LAYER_NORM_SLOTS)
}  // namespace simdax::kernels::neon
