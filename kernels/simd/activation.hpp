// The fused activations of docs/spec.md on vectors, and act_map: one activation over
// a contiguous array (in place allowed: every vector is loaded before its
// slot is stored). One switch per call, one loop per activation.
//
// Numerics (f32 errors are a few ulp unless noted; f64 ~1 ulp):
//  - elu/celu/scaled_elu use expm1 (no cancellation near 0); celu with
//    alpha < 0 takes alpha*expm1(t) as (alpha*e)*(e + 2), e = expm1(t/2),
//    which stays finite wherever the result does (t = x/alpha > 0 there);
//  - sigmoid = (x >= 0 ? 1 : e) / (1 + e), e = exp(-|x|): no overflow, and
//    relative accuracy for very negative x;
//  - tanh = sign(x) * t/(t + 2), t = expm1(2|x|), |x| clamped where tanh
//    rounds to 1 (float on AVX2 and NEON: xsimd::tanh);
//  - softplus(t) = max(t, 0) + log1p(exp(-|t|)), with max(t, 0) taken as
//    x (or alpha*beta*x) by the sign of t: no overflow where s*x overflows;
//  - gelu = x * (x < 0 ? c : 1 - c), c = erfc(|x|/sqrt 2)/2 (relative
//    accuracy on the negative tail; f64 takes erfc from libm lane by lane).
// NaN propagates through every activation. Infinities follow the formula in
// IEEE arithmetic (softsign(+-inf) and gelu(-inf) are NaN, as in float64).
#pragma once

#include <cmath>

#include "kernel_table.hpp"
#include "simd/erfc_f32.hpp"
#include "simd/exp_f32.hpp"
#include "simd/exp_f64.hpp"
#include "simd/log_f32.hpp"
#include "simd/log_f64.hpp"
#include "simd/map.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

inline VF::R vexp(VF::R x) { return exp_f32(x); }
inline VD::R vexp(VD::R x) { return exp_f64(x); }
inline VF::R vexpm1(VF::R x) { return expm1_f32(x); }
inline VD::R vexpm1(VD::R x) { return expm1_f64(x); }
inline VF::R vlog1p(VF::R x) { return log1p_f32(x); }
inline VD::R vlog1p(VD::R x) { return log1p_f64(x); }
inline VF::R verfc(VF::R z) { return erfc_f32(z); }
inline VD::R verfc(VD::R z) {
    alignas(64) double t[VD::N];
    VD::store(t, z);
    for (double& v : t) v = std::erfc(v);
    return VD::load(t);
}

template <class V>
inline typename V::R tanh_v(typename V::R x) {
    using E = typename V::E;
#if defined(SIMDAX_VEC_XSIMD)
    // xsimd's float tanh: about 1.3 ulp (the form below 2.4), and faster
    // near 0. Its double tanh is twice as slow as the form below.
    if constexpr (std::is_same_v<E, float>) {
        return xsimd::tanh(x);
    } else
#endif
    {
        // Beyond this |x|, tanh(x) rounds to 1 in E.
        const E clamp = sizeof(E) == 4 ? E(9.5) : E(19.5);
        const typename V::R a = V::min(V::set1(clamp), V::abs(x));
        const typename V::R t = vexpm1(V::add(a, a));
        return V::xor_(V::div(t, V::add(t, V::set1(E(2)))), V::sign(x));
    }
}

// ln(1 + exp(t)) - max(t, 0).
template <class V>
inline typename V::R softplus_tail(typename V::R t) {
    return vlog1p(vexp(V::sub(V::zero(), V::abs(t))));
}

template <class V>
inline typename V::R gelu_v(typename V::R x) {
    using E = typename V::E;
    const typename V::R z = V::mul(V::abs(x), V::set1(E(0.70710678118654752440)));
    const typename V::R c = V::mul(V::set1(E(0.5)), verfc(z));
    const typename V::R w = V::blend(V::lt(x, V::zero()), V::sub(V::set1(E(1)), c), c);
    return V::mul(x, w);
}

template <class T>
void act_map(const ActParams& a, const T* x, T* y, size_t n) {
    using V = Vec<T>;
    using R = typename V::R;
    using E = typename V::E;
    const R al = V::set1(E(a.alpha)), be = V::set1(E(a.beta)), ga = V::set1(E(a.gamma));
    const R zero = V::zero(), one = V::set1(E(1));
    switch (a.type) {
        case SIMDAX_ACTIVATION_IDENTITY:
            if (x != y) map(x, y, n, [](R v) { return v; });
            return;
        case SIMDAX_ACTIVATION_LINEAR: return map(x, y, n, [=](R v) { return V::fma(al, v, be); });
        case SIMDAX_ACTIVATION_RELU: return map(x, y, n, [=](R v) { return V::max(zero, v); });
        case SIMDAX_ACTIVATION_LEAKY_RELU:
            return map(x, y, n, [=](R v) { return V::blend(V::ge(v, zero), V::mul(al, v), v); });
        case SIMDAX_ACTIVATION_ELU:
            return map(x, y, n, [=](R v) { return V::blend(V::ge(v, zero), V::mul(al, vexpm1(v)), v); });
        case SIMDAX_ACTIVATION_CELU:
            if (a.alpha < 0) {  // x < 0: t = x/alpha > 0, alpha*expm1(t) may overflow
                const R half = V::set1(E(0.5)), two = V::set1(E(2));
                return map(x, y, n, [=](R v) {
                    const R e = vexpm1(V::mul(V::div(v, al), half));
                    const R neg = V::min(zero, V::mul(V::mul(al, e), V::add(e, two)));
                    return V::add(V::max(zero, v), neg);
                });
            }
            return map(x, y, n, [=](R v) {
                const R neg = V::min(zero, V::mul(al, vexpm1(V::div(v, al))));
                return V::add(V::max(zero, v), neg);
            });
        case SIMDAX_ACTIVATION_SCALED_ELU: {
            // gamma*alpha beyond E (1e30 * 1e30): gamma*(alpha*expm1(x)),
            // finite wherever the result is (inf * expm1(0) would be NaN).
            if (!std::isfinite(double(E(a.gamma) * E(a.alpha))))
                return map(x, y, n, [=](R v) {
                    return V::blend(V::gt(v, zero), V::mul(ga, V::mul(al, vexpm1(v))), V::mul(ga, v));
                });
            const R gal = V::set1(E(a.gamma) * E(a.alpha));
            return map(x, y, n,
                       [=](R v) { return V::blend(V::gt(v, zero), V::mul(gal, vexpm1(v)), V::mul(ga, v)); });
        }
        case SIMDAX_ACTIVATION_SIGMOID:
            return map(x, y, n, [=](R v) {
                const R e = vexp(V::sub(zero, V::abs(v)));
                return V::div(V::blend(V::ge(v, zero), e, one), V::add(one, e));
            });
        case SIMDAX_ACTIVATION_HARD_SIGMOID:
            return map(x, y, n, [=](R v) { return V::max(zero, V::min(one, V::fma(al, v, be))); });
        case SIMDAX_ACTIVATION_TANH: return map(x, y, n, [](R v) { return tanh_v<V>(v); });
        case SIMDAX_ACTIVATION_SCALED_TANH:
            return map(x, y, n, [=](R v) { return V::mul(al, tanh_v<V>(V::mul(be, v))); });
        case SIMDAX_ACTIVATION_SOFTPLUS:
            return map(x, y, n, [=](R v) {
                const R t = V::mul(al, v);
                return V::add(V::blend(V::gt(t, zero), zero, v), V::div(softplus_tail<V>(t), al));
            });
        case SIMDAX_ACTIVATION_PARAMETRIC_SOFTPLUS: {
            // alpha*beta beyond E: alpha*(beta*x) instead (beta*x overflows
            // only where the result does, |alpha*beta| > max needing
            // |beta| > max/|alpha|). Likewise where it underflows to 0
            // (0*inf would be NaN; |beta| < 1 there, so beta*x cannot
            // overflow).
            const double ab_exact = double(a.alpha) * double(a.beta);
            if (!std::isfinite(E(ab_exact)) || (E(ab_exact) == E(0) && ab_exact != 0.0))
                return map(x, y, n, [=](R v) {
                    const R t = V::mul(be, v);
                    return V::add(V::blend(V::gt(t, zero), zero, V::mul(al, t)),
                                  V::mul(al, softplus_tail<V>(t)));
                });
            const R ab = V::set1(E(double(a.alpha) * double(a.beta)));
            return map(x, y, n, [=](R v) {
                const R t = V::mul(be, v);
                return V::add(V::blend(V::gt(t, zero), zero, V::mul(ab, v)), V::mul(al, softplus_tail<V>(t)));
            });
        }
        case SIMDAX_ACTIVATION_SOFTSIGN:
            return map(x, y, n, [=](R v) { return V::div(v, V::add(one, V::abs(v))); });
        case SIMDAX_ACTIVATION_THRESHOLDED_RELU:
            // x > alpha, or NaN, keeps x.
            return map(x, y, n, [=](R v) { return V::blend(V::not_le(v, al), zero, v); });
        case SIMDAX_ACTIVATION_SHRINK: {
            // alpha = bias, beta = threshold.
            const R nbe = V::sub(zero, be);
            return map(x, y, n, [=](R v) {
                const R r = V::blend(V::lt(v, nbe), zero, V::add(v, al));
                return V::blend(V::not_le(v, be), r, V::sub(v, al));
            });
        }
        case SIMDAX_ACTIVATION_GELU: return map(x, y, n, [](R v) { return gelu_v<V>(v); });
    }
    // Unknown type (validated away by the planner): leave y as x.
    if (x != y) map(x, y, n, [](R v) { return v; });
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
