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

#define SIMDAX_SIMD_INSTANTIATE_SOFTMAX(T) SIMDAX_SOFTMAX_SLOTS(SIMDAX_SLOT_INSTANTIATE, T)
#define SIMDAX_SIMD_INSTANTIATE_HARDMAX(T) SIMDAX_HARDMAX_SLOTS(SIMDAX_SLOT_INSTANTIATE, T)
#define SIMDAX_SIMD_INSTANTIATE_MVN(T) SIMDAX_MVN_SLOTS(SIMDAX_SLOT_INSTANTIATE, T)
#define SIMDAX_SIMD_INSTANTIATE_ACTIVATION(T) SIMDAX_ACTIVATION_SLOTS(SIMDAX_SLOT_INSTANTIATE, T)

namespace simdax::kernels::SIMDAX_KERNEL_ISA {
SIMDAX_DEFINE_ALL_SLOTS
}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA

#define SIMDAX_SIMD_DTYPE_ENTRY(T) all_slots<T>(),
