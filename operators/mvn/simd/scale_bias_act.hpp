// The end of every MVN output pass: y = act(t*scale + bias) over a block of
// normalised values t, with Scale/Bias element i at p[i*stride] (stride 0 and
// 1 the fast paths), rounded to the storage type.
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>

#include "kernel_table.hpp"
#include "mvn/mvn_wide.hpp"
#include "simd/activation.hpp"
#include "simd/map.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

// Values per output block: a float16/bfloat16 output's compute-type
// buffer stays in L1.
constexpr size_t kNormBlock = 512;

// Scale or bias values for elements [i, i+cnt) of a run with stride s.
// The gather out of line: inline, it keeps the callers' loops from being
// inlined themselves.
template <class T>
SIMDAX_NOINLINE typename Vec<T>::R gather_scale_bias(const T* p, ptrdiff_t s, size_t i, size_t cnt) {
    using V = Vec<T>;
    alignas(64) typename V::E t[V::N] = {};
    for (size_t q = 0; q < cnt; ++q) t[q] = to_e(p[ptrdiff_t(i + q) * s]);
    return V::load(t);
}

template <class T>
SIMDAX_INLINE typename Vec<T>::R load_scale_bias(const T* p, ptrdiff_t s, size_t i, size_t cnt) {
    using V = Vec<T>;
    if (s == 1) return cnt == V::N ? V::load(p + i) : V::loadn(p + i, cnt, V::zero());
    return gather_scale_bias(p, s, i, cnt);
}

// The activation over t[0..n) into out. A value the affine map pushed
// beyond a float compute type (inf from finite operands: a Scale times a
// deviation near the top) is evaluated again in double, activation
// included, so an activation that brings it back (gelu(-1e39) = -0, linear
// with a tiny alpha) keeps its result. pre(i): element i's value before the
// activation, in double. (Infinite operands give the same inf again.)
template <class E, class Pre>
void act_map_in_range(const ActParams& act, E* t, E* out, size_t n, const Pre& pre) {
    if constexpr (sizeof(E) == 4) {
        bool any = false;
        if (act.type != SIMDAX_ACTIVATION_IDENTITY)
            for (size_t i = 0; i < n; ++i) any |= std::fabs(t[i]) == std::numeric_limits<E>::infinity();
        if (any) {  // rare: element by element
            for (size_t i = 0; i < n; ++i) {
                E v = t[i];
                if (std::fabs(v) == std::numeric_limits<E>::infinity())
                    v = E(wide_activate(pre(i), act));
                else
                    act_map<E>(act, &v, &v, 1);
                out[i] = v;
            }
            return;
        }
    }
    act_map<E>(act, t, out, n);
}

// t[0..n) holds normalised values; y = act(t*scale + bias), stored as T.
// t may be y itself when T is the compute type. norm(i): element i's
// normalised value in double (for act_map_in_range).
template <class T, class Norm>
void scale_bias_act(typename Vec<T>::E* t, size_t n, const T* sc, ptrdiff_t ss, const T* bi, ptrdiff_t bs,
                    const ActParams& act, T* y, const Norm& norm) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    if (sc || bi) {
        const R one = V::set1(E(1));
        const bool sc_c = !sc || ss == 0, bi_c = !bi || bs == 0;
        const R scv = sc ? V::set1(to_e(sc[0])) : one, biv = bi ? V::set1(to_e(bi[0])) : V::zero();
        for (size_t i = 0; i < n; i += V::N) {
            const size_t cnt = n - i < V::N ? n - i : V::N;
            const R s = sc_c ? scv : load_scale_bias(sc, ss, i, cnt);
            const R b = bi_c ? biv : load_scale_bias(bi, bs, i, cnt);
            const R v = cnt == V::N ? V::load(t + i) : V::loadn(t + i, cnt, V::zero());
            if (cnt == V::N)
                V::store(t + i, V::fma(v, s, b));
            else
                V::storen(t + i, V::fma(v, s, b), cnt);
        }
    }
    act_map_in_range<E>(act, t, t, n, [&](size_t i) {
        const ptrdiff_t k = ptrdiff_t(i);
        return (sc ? double(to_e(sc[k * ss])) : 1.0) * norm(i) + (bi ? double(to_e(bi[k * bs])) : 0.0);
    });
    if constexpr (!std::is_same_v<T, E>) convert(t, result_ptr(y), n);
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
