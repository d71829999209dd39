// The AVX512 kernel table: every entry of every dtype is this ISA's own.
#include "x86/kernel_list.hpp"

namespace simdax::kernels::avx512 {

extern const IsaKernels kTable;
const IsaKernels kTable = {{SIMDAX_X86_FOR_EACH_DTYPE(SIMDAX_X86_DTYPE_ENTRY)}};

}  // namespace simdax::kernels::avx512
