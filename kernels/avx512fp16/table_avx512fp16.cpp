// The avx512fp16 table: the float16 entries that gain from native float16
// arithmetic and stay exact (simd/f16/f16_kernels.hpp: Hardmax compares,
// ReLU). Every other entry is nullptr, inherited from avx512: float16
// softmax, MVN and the rounding activations compute in float and round once
// on store (docs/spec.md: 1 ulp; float16 arithmetic would also round alpha
// and beta to half precision), and bfloat16 stores already use
// VCVTNEPS2BF16 in the avx512 kernels where the CPU has it.
#include "simd/f16/f16_kernels.hpp"
#include "simd/cpu_facts.hpp"

namespace simdax::kernels::avx512fp16 {

extern const IsaKernels kTable;
const IsaKernels kTable = {{DtypeKernels{}, native_f16_kernels(), DtypeKernels{}, DtypeKernels{}},
                           &cpu_facts};

}  // namespace simdax::kernels::avx512fp16
