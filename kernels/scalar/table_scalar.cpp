// The portable kernel table: complete for every dtype; every other ISA
// inherits from it what it does not override.
#include "scalar_kernels.hpp"

namespace simdax::kernels::scalar {
namespace {
SIMDAX_DEFINE_ALL_SLOTS
}  // namespace

#define SIMDAX_SCALAR_DTYPE_ENTRY(T) all_slots<T>(),
const IsaKernels kTable = {{SIMDAX_SCALAR_FOR_EACH_DTYPE(SIMDAX_SCALAR_DTYPE_ENTRY)}};

}  // namespace simdax::kernels::scalar
