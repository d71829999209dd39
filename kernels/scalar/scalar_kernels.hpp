// Declarations of the portable kernels, one set per dtype suffix.
#pragma once

#include "kernel_table.hpp"
#include "scalar_types.hpp"

namespace simdax::kernels::scalar {

// Storage types in DType order (kernel_table.hpp): f32, f16, bf16, f64.
#define SIMDAX_SCALAR_FOR_EACH_DTYPE(X) X(float) X(Half) X(BFloat) X(double)

SIMDAX_KERNEL_SLOTS(SIMDAX_SLOT_DECLARE, _)

// A group of n contiguous elements is a cols problem of one lane (row
// stride 1): the portable rows kernels hand each row to the cols kernel.
template <class T>
inline const void* row_at(const void* x, size_t g, ptrdiff_t rs) {
    return static_cast<const char*>(x) + ptrdiff_t(g) * rs * ptrdiff_t(sizeof(T));
}
template <class T>
inline void* row_at(void* y, size_t g, ptrdiff_t rs) {
    return static_cast<char*>(y) + ptrdiff_t(g) * rs * ptrdiff_t(sizeof(T));
}

// The activation of one element, in the compute type.
template <class Acc>
Acc activate(Acc x, const ActParams& a);

extern const IsaKernels kTable;

}  // namespace simdax::kernels::scalar
