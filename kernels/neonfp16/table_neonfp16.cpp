// The neonfp16 table: the float16 entries that gain from native float16
// arithmetic and stay exact (simd/f16/f16_kernels.hpp: Hardmax compares,
// ReLU). Every other entry is nullptr, inherited from neon: float16
// softmax, MVN and the rounding activations compute in float and round once
// on store (docs/spec.md: 1 ulp), and the other dtypes have nothing to gain
// from FEAT_FP16.
#include "simd/f16/f16_kernels.hpp"

namespace simdax::kernels::neonfp16 {

extern const IsaKernels kTable;
const IsaKernels kTable = {{DtypeKernels{}, native_f16_kernels(), DtypeKernels{}, DtypeKernels{}}};

}  // namespace simdax::kernels::neonfp16
