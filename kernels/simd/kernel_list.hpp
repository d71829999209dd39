// The SIMD kernel templates of one ISA, declared from the slot list
// (kernel_slots.hpp; bodies in the operators' headers), and the generators
// each ISA's TUs use: one family's explicit instantiations per TU, and the
// table, which takes the kernels' addresses from these declarations only.
#pragma once

#include "kernel_table.hpp"
#include "simd/dtypes.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {
SIMDAX_KERNEL_SLOTS(SIMDAX_SLOT_DECLARE, _)
}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA

// Storage types in DType order (kernel_table.hpp): f32, f16, bf16, f64.
#define SIMDAX_SIMD_FOR_EACH_DTYPE(X) X(float) X(F16) X(BF16) X(double)

// An operator's TU of this ISA: its slots' templates for every storage
// type, SIMDAX_SIMD_INSTANTIATE(SIMDAX_<OPERATOR>_SLOTS).
#define SIMDAX_SIMD_INSTANTIATE(SLOTS)    \
    SLOTS(SIMDAX_SLOT_INSTANTIATE, float) \
    SLOTS(SIMDAX_SLOT_INSTANTIATE, F16)   \
    SLOTS(SIMDAX_SLOT_INSTANTIATE, BF16) SLOTS(SIMDAX_SLOT_INSTANTIATE, double)

namespace simdax::kernels::SIMDAX_KERNEL_ISA {
SIMDAX_DEFINE_ALL_SLOTS
}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA

#define SIMDAX_SIMD_DTYPE_ENTRY(T) all_slots<T>(),
