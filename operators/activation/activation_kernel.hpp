// The activation entry: act_map over the storage type directly (float16 /
// bfloat16 convert in registers, no staging buffer).
#pragma once

#include "simd/activation.hpp"
#include "simd/kernel_list.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

template <class T>
void activation(const void* x, void* y, size_t n, const ActParams* act) {
    const VecScope scope;
    act_map<T>(*act, static_cast<const T*>(x), static_cast<T*>(y), n);
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
