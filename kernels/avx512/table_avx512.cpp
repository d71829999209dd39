// The AVX512 kernel table: every entry of every dtype is this ISA's own;
// dispatch fills cpu_facts (simd/vec.hpp) through it.
#include "simd/kernel_list.hpp"
#include "simd/vec.hpp"

namespace simdax::kernels::avx512 {

extern const IsaKernels kTable;
const IsaKernels kTable = {{SIMDAX_SIMD_FOR_EACH_DTYPE(SIMDAX_SIMD_DTYPE_ENTRY)}, &cpu_facts};

}  // namespace simdax::kernels::avx512
