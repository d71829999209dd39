// The neonfp16 table: float16 entries that gain from native float16
// arithmetic and stay exact (Hardmax compares, ReLU). Every other entry is
// nullptr, inherited from neon: float16 softmax, MVN and the rounding
// activations compute in float and round once on store (docs/spec.md: 1 ulp), and
// the other dtypes have nothing to gain from FEAT_FP16.
#include "kernel_table.hpp"
#include "neonfp16/neonfp16_kernels.hpp"

namespace simdax::kernels::neonfp16 {
namespace {
constexpr DtypeKernels f16_kernels() {
    DtypeKernels k{};
    k.argmax = &argmax_f16;
    k.activation = &activation_f16;
    k.hardmax_cols = &hardmax_cols_f16;
    k.hardmax_rows = &hardmax_rows_f16;
    return k;
}
}  // namespace

extern const IsaKernels kTable;
const IsaKernels kTable = {{DtypeKernels{}, f16_kernels(), DtypeKernels{}, DtypeKernels{}}};

}  // namespace simdax::kernels::neonfp16
