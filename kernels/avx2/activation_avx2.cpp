// AVX2 build of the activation kernels (kernels/x86/activation.hpp).
#include "x86/activation_kernel.hpp"
#include "x86/kernel_list.hpp"

namespace simdax::kernels::avx2 {
SIMDAX_X86_FOR_EACH_DTYPE(SIMDAX_X86_INSTANTIATE_ACTIVATION)
}  // namespace simdax::kernels::avx2
