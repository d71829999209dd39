// Lane blocking for the "cols" kernels: k contiguous lanes are cut into
// blocks of 4 vectors (a row of a block spans whole cache lines, so the walk
// down the rows streams full lines), then single vectors, then one partial
// vector whose loads and stores are masked to the lanes that exist.
#pragma once

#include <type_traits>

#include "simd/vec.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

// Calls f(nv, partial, l0, tail) with nv an integral_constant vector count
// and partial a bool_constant: lanes [l0, l0 + (nv-1)*N + tail).
template <class V, class F>
inline void for_lane_blocks(size_t k, F f) {
    constexpr size_t N = V::N;
    size_t l = 0;
    for (; l + 4 * N <= k; l += 4 * N) f(std::integral_constant<int, 4>{}, std::false_type{}, l, N);
    for (; l + N <= k; l += N) f(std::integral_constant<int, 1>{}, std::false_type{}, l, N);
    if (l < k) f(std::integral_constant<int, 1>{}, std::true_type{}, l, k - l);
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
