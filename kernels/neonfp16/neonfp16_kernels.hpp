// The neonfp16 kernels (float16 only; every other entry is neon's), and the
// neon kernels they hand over to when native float16 does not fit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernel_table.hpp"

namespace simdax::kernels {

namespace neon {
struct F16;
SIMDAX_KERNEL_SLOTS(SIMDAX_SLOT_DECLARE, _)
}  // namespace neon

// The slots neonfp16 fills for float16, in kernel_slots.hpp's form; each
// kernel is declared with its slot's own type.
#define SIMDAX_NEONFP16_F16_SLOTS(X, A) \
    X(A, argmax, _) X(A, hardmax_cols, _) X(A, hardmax_rows, _) X(A, activation, _)

namespace neonfp16 {
#define SIMDAX_NEONFP16_DECLARE(A, name, params) \
    std::remove_pointer_t<decltype(DtypeKernels::name)> name##_f16;
SIMDAX_NEONFP16_F16_SLOTS(SIMDAX_NEONFP16_DECLARE, _)
#undef SIMDAX_NEONFP16_DECLARE
}  // namespace neonfp16

}  // namespace simdax::kernels
