// The neonfp16 table: float16 entries that gain from native float16
// arithmetic and stay exact (Hardmax compares, ReLU). Every other entry is
// nullptr, inherited from neon: float16 softmax, MVN and the rounding
// activations compute in float and round once on store (docs/spec.md: 1 ulp), and
// the other dtypes have nothing to gain from FEAT_FP16.
#include "kernel_table.hpp"
#include "neonfp16/neonfp16_kernels.hpp"

namespace simdax::kernels::neonfp16 {
namespace {
// Each slot takes the float16 kernel of its own name (name_f16).
#define SIMDAX_NEONFP16_F16_SLOT(A, name, params) k.name = &name##_f16;
constexpr DtypeKernels f16_kernels() {
    DtypeKernels k{};
    SIMDAX_NEONFP16_F16_SLOTS(SIMDAX_NEONFP16_F16_SLOT, _)
    return k;
}
#undef SIMDAX_NEONFP16_F16_SLOT
}  // namespace

extern const IsaKernels kTable;
const IsaKernels kTable = {{DtypeKernels{}, f16_kernels(), DtypeKernels{}, DtypeKernels{}}};

}  // namespace simdax::kernels::neonfp16
