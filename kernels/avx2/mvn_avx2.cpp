// AVX2 build of the MeanVarianceNormalization kernels (kernels/x86/mvn.hpp).
#include "x86/kernel_list.hpp"
#include "x86/mvn.hpp"

namespace simdax::kernels::avx2 {
SIMDAX_X86_FOR_EACH_DTYPE(SIMDAX_X86_INSTANTIATE_MVN)
}  // namespace simdax::kernels::avx2
