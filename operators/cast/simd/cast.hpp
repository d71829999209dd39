// Cast's kernels over the vector layer: float32, float16 and bfloat16 share
// the float compute register, so a cast among them is a load of one storage
// type and a store of the other. To and from float64, element by element:
// widening is exact, narrowing rounds once (kernels/round_to_odd.hpp).
#pragma once

#include <type_traits>

#include "cast/cast_slots.hpp"
#include "round_to_odd.hpp"
#include "simd/vec.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

template <class T, class U>
void cast_run(const void* xv, void* yv, size_t n) {
    const VecScope scope;
    const T* x = static_cast<const T*>(xv);
    U* y = static_cast<U*>(yv);
    using VU = Vec<U>;
    if constexpr (std::is_same_v<U, double>) {
        for (size_t i = 0; i < n; ++i) y[i] = double(to_e(x[i]));
    } else if constexpr (std::is_same_v<T, double>) {
        for (size_t i = 0; i < n; ++i)
            VU::storen(y + i, VU::set1(std::is_same_v<U, float> ? float(x[i]) : round_to_odd(x[i])), 1);
    } else {
        using VT = Vec<T>;
        static_assert(std::is_same_v<typename VT::R, typename VU::R>, "one compute register");
        size_t i = 0;
        // Two vectors per store where one narrowing does both (store_pair).
        for (; i + 2 * VT::N <= n; i += 2 * VT::N)
            store_pair<VU>(y + i, VT::load(x + i), VT::load(x + i + VT::N));
        for (; i + VT::N <= n; i += VT::N) VU::store(y + i, VT::load(x + i));
        if (i < n) VU::storen(y + i, VT::loadn(x + i, n - i, VT::set1(0.0f)), n - i);
    }
}

SIMDAX_DEFINE_CAST_KERNELS(F16, BF16)

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
