// MVN's chunk output (the normalize slot): one piece of a group, given the
// group's NormArgs. y = act(scale*((x - mean_hi) - mean_lo)*inv_std + bias),
// the double mean split into two compute-type values (x - mean_hi is exact
// near the mean). A group outside the fast range (NormArgs::wide) is
// evaluated in the wider type (operators/mvn/mvn_wide.hpp).
#pragma once

#include <type_traits>

#include "kernel_table.hpp"
#include "mvn/mvn_wide.hpp"
#include "mvn/simd/scale_bias_act.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

// f(b, nb, t) for each block [b, b + nb) of kNormBlock elements; t is the
// block's compute-type buffer (y itself when T is the compute type).
template <class T, class F>
inline void for_norm_blocks(T* y, size_t n, F&& f) {
    using E = typename Vec<T>::E;
    alignas(64) E buf[std::is_same_v<T, E> ? 1 : kNormBlock];
    for (size_t b = 0; b < n; b += kNormBlock) {
        E* t;
        if constexpr (std::is_same_v<T, E>)
            t = y + b;
        else
            t = buf;
        f(b, n - b < kNormBlock ? n - b : kNormBlock, t);
    }
}

// A group outside the fast range (NormArgs::wide): the affine map of every
// element in the wider type, the activation in double, then rounded to E.
template <class T>
void normalize_wide(const T* x, T* y, size_t n, const NormArgs* a) {
    using E = typename Vec<T>::E;
    using W = WideOf<E>;
    const WideFpScope<W> fp;
    const T* sc = static_cast<const T*>(a->scale);
    const T* bi = static_cast<const T*>(a->bias);
    const WideNorm<W> g{W(a->wide_mean), W(a->wide_inv)};
    for_norm_blocks(y, n, [&](size_t b, size_t nb, E* t) {
        for (size_t i = 0; i < nb; ++i) {
            const ptrdiff_t k = ptrdiff_t(b + i);
            t[i] = E(wide_value<W>(W(to_e(x[k])), g, sc ? W(to_e(sc[k * a->scale_stride])) : W(1),
                                   bi ? W(to_e(bi[k * a->bias_stride])) : W(0), a->act));
        }
        if constexpr (!std::is_same_v<T, E>) convert(t, y + b, nb);
    });
}

template <class T>
void normalize_run(const T* x, T* y, size_t n, const NormArgs* a) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    if (a->wide) {
        normalize_wide(x, y, n, a);
        return;
    }
    const E mh = E(a->mean);
    const R vmh = V::set1(mh), vml = V::set1(E(a->mean - double(mh))), inv = V::set1(E(a->inv_std));
    const T* sc = static_cast<const T*>(a->scale);
    const T* bi = static_cast<const T*>(a->bias);
    for_norm_blocks(y, n, [&](size_t b, size_t nb, E* t) {
        // Copies the loop keeps in registers: the stores to t may alias
        // what the lambda captures by reference, which made it reload them
        // all at every vector.
        const R m_hi = vmh, m_lo = vml, s = inv;
        const T* xb = x + b;
        size_t i = 0;
        for (; i + V::N <= nb; i += V::N)
            V::store(t + i, V::mul(V::sub(V::sub(V::load(xb + i), m_hi), m_lo), s));
        if (i < nb)
            V::storen(t + i, V::mul(V::sub(V::sub(V::loadn(xb + i, nb - i, m_hi), m_hi), m_lo), s), nb - i);
        scale_bias_act<T>(t, nb, sc ? sc + ptrdiff_t(b) * a->scale_stride : nullptr, a->scale_stride,
                          bi ? bi + ptrdiff_t(b) * a->bias_stride : nullptr, a->bias_stride, a->act, y + b,
                          [&](size_t i) { return (double(to_e(x[b + i])) - a->mean) * a->inv_std; });
    });
}

template <class T>
void normalize(const void* x, void* y, size_t n, const NormArgs* a) {
    const VecScope scope;
    normalize_run(static_cast<const T*>(x), static_cast<T*>(y), n, a);
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
