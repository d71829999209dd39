// AVX2 build of the Hardmax kernels (kernels/x86/hardmax.hpp).
#include "x86/hardmax.hpp"
#include "x86/kernel_list.hpp"

namespace simdax::kernels::avx2 {
SIMDAX_X86_FOR_EACH_DTYPE(SIMDAX_X86_INSTANTIATE_HARDMAX)
}  // namespace simdax::kernels::avx2
