// The max and the sum of 2^t of two short rows in one loop, for ISAs of 16
// vector registers (rows_batched.hpp). Row by row, each short row ended on
// the latency of its own sum chain and horizontal step, with too few
// instructions after it for the reorder window to reach the next row
// (LogSoftmax [8,12,128,128] on Zen 3: 1.4 cycles per element from L2,
// where the exp takes about 0.4). Two rows give four independent chains and
// one loop's overhead for both. The results equal block_max's and
// fused_block_sum's to the float rounding of the sums.
#pragma once

#include "softmax/simd/blocks.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

// The max of each of x0[0..n) and x1[0..n); c0/c1 (float16/bfloat16, or
// null): their float values are written there on the way.
template <class T>
SIMDAX_INLINE void pair_max(const T* x0, const T* x1, size_t n, typename Vec<T>::E* c0,
                            typename Vec<T>::E* c1, typename Vec<T>::E& m0, typename Vec<T>::E& m1) {
    using V = Vec<T>;
    using VE = Vec<typename V::E>;
    using R = typename V::R;
    constexpr size_t N = V::N;
    const R ninf = V::set1(-__builtin_inf());
    R a0 = ninf, a1 = ninf, b0 = ninf, b1 = ninf;
    const auto ld = [&](const T* x, typename V::E* c, size_t j, size_t k) __attribute__((always_inline)) {
        const R v = k == N ? V::load(x + j) : V::loadn(x + j, k, ninf);
        if (c) VE::storen(c + j, v, k);
        return v;
    };
    size_t j = 0;
    for (; j + 2 * N <= n; j += 2 * N) {
        a0 = V::max(a0, ld(x0, c0, j, N));
        a1 = V::max(a1, ld(x1, c1, j, N));
        b0 = V::max(b0, ld(x0, c0, j + N, N));
        b1 = V::max(b1, ld(x1, c1, j + N, N));
    }
    for (; j < n; j += N) {
        const size_t k = n - j < N ? n - j : N;
        a0 = V::max(a0, ld(x0, c0, j, k));
        a1 = V::max(a1, ld(x1, c1, j, k));
    }
    m0 = V::hmax(V::max(a0, b0));
    m1 = V::hmax(V::max(a1, b1));
}

// The sums of 2^t (folded, t = x*log2e + nh) of x0[0..n) and x1[0..n);
// STORE also writes each 2^t to y0/y1 (null otherwise). Missing lanes of a
// tail read -inf.
template <class E, bool STORE, int DEG>
SIMDAX_INLINE void pair_sum(const E* x0, const E* x1, E* y0, E* y1, size_t n, typename Vec<E>::R nh0,
                            typename Vec<E>::R nh1, E& s0, E& s1) {
    using V = Vec<E>;
    using R = typename V::R;
    constexpr size_t N = V::N;
    // One accumulator a row: a third and fourth spill beside the exp's
    // constants, and two chains of an FMA each already outrun the FMAs.
    R a0 = V::zero(), a1 = V::zero();
    const auto step = [&](const E* x, E* y, R nh, R s, size_t j, size_t k) __attribute__((always_inline)) {
        const R v = k == N ? V::load(x + j) : V::loadn(x + j, k, V::set1(E(-__builtin_inf())));
        return exp_add<E, true, STORE, DEG>(v, nh, s, STORE ? y + j : nullptr, k);
    };
    size_t j = 0;
    for (; j + 2 * N <= n; j += 2 * N) {
        a0 = step(x0, y0, nh0, a0, j, N);
        a1 = step(x1, y1, nh1, a1, j, N);
        a0 = step(x0, y0, nh0, a0, j + N, N);
        a1 = step(x1, y1, nh1, a1, j + N, N);
    }
    for (; j < n; j += N) {
        const size_t k = n - j < N ? n - j : N;
        a0 = step(x0, y0, nh0, a0, j, k);
        a1 = step(x1, y1, nh1, a1, j, k);
    }
    s0 = V::hsum(a0);
    s1 = V::hsum(a1);
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
