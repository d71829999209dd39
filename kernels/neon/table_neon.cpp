// The NEON kernel table: every entry of every dtype is this ISA's own.
#include "simd/kernel_list.hpp"

namespace simdax::kernels::neon {

extern const IsaKernels kTable;
const IsaKernels kTable = {{SIMDAX_SIMD_FOR_EACH_DTYPE(SIMDAX_SIMD_DTYPE_ENTRY)}};

}  // namespace simdax::kernels::neon
