// avx2 build of the AttentionSoftmax kernels (operators/attention_softmax/simd/).
#include "attention_softmax/simd/attention_fused.hpp"
#include "simd/kernel_list.hpp"

namespace simdax::kernels::avx2 {
SIMDAX_SIMD_INSTANTIATE(SIMDAX_ATTENTION_SOFTMAX_SLOTS)
}  // namespace simdax::kernels::avx2
