// Lane blocking for the "cols" kernels: k contiguous lanes are cut into
// blocks of 4 vectors (a row of a block spans whole cache lines, so the walk
// down the rows streams full lines), then single
// vectors, then one partial vector whose loads and stores are masked to the
// lanes that exist.
#pragma once

#include <cstdint>
#include <type_traits>

#include "simd/vec.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

// Calls f(nv, partial, l0, tail) with nv an integral_constant vector count
// and partial a bool_constant: lanes [l0, l0 + (nv-1)*N + tail).
template <class V, int B = 4, class F>
inline void for_lane_blocks(size_t k, F f) {
    constexpr size_t N = V::N;
    // B = 4 vectors by default (with 16 registers some per-lane state
    // spills, but halving the block doubles the strided walks).
    size_t l = 0;
    for (; l + B * N <= k; l += B * N) f(std::integral_constant<int, B>{}, std::false_type{}, l, N);
    for (; l + N <= k; l += N) f(std::integral_constant<int, 1>{}, std::false_type{}, l, N);
    if (l < k) f(std::integral_constant<int, 1>{}, std::true_type{}, l, k - l);
}

// Calls f(c0, kc) for the chunks [c0, c0 + kc) of k lanes, chunk lanes each
// (the last may be shorter), that a cols walk by rows takes at once.
template <class F>
inline void for_lane_chunks(size_t k, size_t chunk, F f) {
    for (size_t c0 = 0; c0 < k; c0 += chunk) f(c0, k - c0 < chunk ? k - c0 : chunk);
}

// Rows ahead that the cols kernels prefetch: a walk down the reduced axis
// jumps a whole row stride per step, which the hardware prefetchers do not
// follow across pages.
constexpr size_t kColPrefetch = 8;

// What a lane block prefetches while it walks its rows: the same rows of the
// next lane block (so only a call's first block waits on memory), and for
// the first block its own rows kColPrefetch ahead.
struct ColPrefetch {
    ptrdiff_t next = 0;     // elements from this block's lane 0 to the next block's
    size_t next_bytes = 0;  // bytes of a row of the next block (0: none)
    bool ahead = false;     // prefetch this block's rows ahead
};

template <class V, size_t B = 4>
inline ColPrefetch col_prefetch(size_t k, size_t l, size_t nv, size_t esize) {
    ColPrefetch c;
    const size_t nl = l + nv * V::N;
    c.next = ptrdiff_t(nv * V::N);
    c.next_bytes = nl < k ? ((k - nl) < B * V::N ? k - nl : B * V::N) * esize : 0;
    c.ahead = l == 0;
    return c;
}

// Prefetches the cache lines of one row of a lane block (`bytes` long).
inline void prefetch_row(const void* p, size_t bytes, bool write) {
    // Every cache line of [p, p + bytes).
    const uintptr_t a = reinterpret_cast<uintptr_t>(p) & ~uintptr_t(63);
    const uintptr_t e = reinterpret_cast<uintptr_t>(p) + bytes;
    if (write) {
        for (uintptr_t q = a; q < e; q += 64) __builtin_prefetch(reinterpret_cast<const void*>(q), 1, 3);
    } else {
        for (uintptr_t q = a; q < e; q += 64) __builtin_prefetch(reinterpret_cast<const void*>(q), 0, 3);
    }
}

// Vector u of a row: full, or the masked last one (fill in missing lanes).
template <int NV, bool PARTIAL, class T>
inline typename Vec<T>::R ld_lane(const T* row, int u, size_t tail, typename Vec<T>::R fill) {
    using V = Vec<T>;
    if (PARTIAL && u == NV - 1) return V::loadn(row + size_t(u) * V::N, tail, fill);
    return V::load(row + size_t(u) * V::N);
}
template <int NV, bool PARTIAL, class T>
inline void st_lane(T* row, int u, size_t tail, typename Vec<T>::R v) {
    using V = Vec<T>;
    if (PARTIAL && u == NV - 1) return V::storen(row + size_t(u) * V::N, v, tail);
    V::store(row + size_t(u) * V::N, v);
}

// Element-wise op on the halves of Wide values.
template <class V, class F>
inline Wide<V> wmap(const Wide<V>& a, const Wide<V>& b, F f) {
    Wide<V> r;
    for (int i = 0; i < Wide<V>::H; ++i) r.h[i] = f(a.h[i], b.h[i]);
    return r;
}
template <class V, class F>
inline Wide<V> wmap(const Wide<V>& a, F f) {
    Wide<V> r;
    for (int i = 0; i < Wide<V>::H; ++i) r.h[i] = f(a.h[i]);
    return r;
}
template <class V>
inline Wide<V> wsplat(double v) {
    Wide<V> r;
    for (int i = 0; i < Wide<V>::H; ++i) r.h[i] = VD::set1(v);
    return r;
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
