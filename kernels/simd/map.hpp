// map: y[i] = f(x[i]) over a contiguous array, two vectors per step, one
// masked step for the tail (never touches memory past n). x == y is allowed:
// each vector is loaded before its slot is stored. An output of at least
// kStreamBytes (beyond L2) that is not the input is written with
// non-temporal stores: no read-for-ownership of y, which would otherwise
// make a memory-bound pass move 3 bytes per 2 that memcpy moves.
#pragma once

#include <cstdint>

#include "simd/vec.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

constexpr size_t kStreamBytes = size_t(2) << 20;

template <class T, class F>
inline void map(const T* x, T* y, size_t n, F f) {
    using V = Vec<T>;
    size_t i = 0;
    const uintptr_t ya = reinterpret_cast<uintptr_t>(y);
    if (x != y && n * sizeof(T) >= kStreamBytes && ya % sizeof(T) == 0) {
        constexpr size_t W = V::N * sizeof(T);
        const size_t head = ((W - ya % W) % W) / sizeof(T);
        if (head) V::storen(y, f(V::loadn(x, head, V::zero())), head);
        for (i = head; i + 2 * V::N <= n; i += 2 * V::N) {
            const typename V::R a = V::load(x + i), b = V::load(x + i + V::N);
            V::stream(y + i, f(a));
            V::stream(y + i + V::N, f(b));
        }
        for (; i + V::N <= n; i += V::N) V::stream(y + i, f(V::load(x + i)));
        _mm_sfence();
        if (i < n) V::storen(y + i, f(V::loadn(x + i, n - i, V::zero())), n - i);
        return;
    }
    for (; i + 2 * V::N <= n; i += 2 * V::N) {
        const typename V::R a = V::load(x + i), b = V::load(x + i + V::N);
        V::store(y + i, f(a));
        V::store(y + i + V::N, f(b));
    }
    for (; i + V::N <= n; i += V::N) V::store(y + i, f(V::load(x + i)));
    if (i < n) V::storen(y + i, f(V::loadn(x + i, n - i, V::zero())), n - i);
}

// y[i] = x[i] between two storage types of the same compute vector (float
// <-> float16/bfloat16, rounding once on store).
template <class S, class D>
inline void convert(const S* x, D* y, size_t n) {
    using V = Vec<D>;
    size_t i = 0;
    for (; i + V::N <= n; i += V::N) V::store(y + i, V::load(x + i));
    if (i < n) V::storen(y + i, V::loadn(x + i, n - i, V::zero()), n - i);
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
