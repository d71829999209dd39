// AVX512 build of the LogSoftmax / Softmax kernels (kernels/x86/softmax_*.hpp).
#include "x86/kernel_list.hpp"
#include "x86/softmax_cols.hpp"
#include "x86/softmax_rows.hpp"

namespace simdax::kernels::avx512 {
SIMDAX_X86_FOR_EACH_DTYPE(SIMDAX_X86_INSTANTIATE_SOFTMAX)
}  // namespace simdax::kernels::avx512
