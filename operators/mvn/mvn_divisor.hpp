// The divisor of an MVN group's deviations, from its variance (docs/spec.md,
// MVN): sqrt(var + epsilon) with epsilon on the variance (DirectML),
// sqrt(var) + epsilon on the standard deviation (ONNX). Every path takes it
// from here: the fast kernels of each ISA (scalar and vector lanes), the
// wide fallback and a chunked group's arguments (operators/mvn/mvn_group_norm.hpp).
#pragma once

#include <cmath>

#include "kernel_table.hpp"

namespace simdax::kernels {

// Internal linkage, as operators/mvn/mvn_wide.hpp: each ISA's copy keeps its flags.
namespace {

// Scalar arithmetic in T with the interface of an ISA's vector traits (VD).
template <class T>
struct ScalarMath {
    using R = T;
    static R add(R a, R b) { return a + b; }
    static R sqrt(R a) { return std::sqrt(a); }
};

// In M's arithmetic: ScalarMath<T>, or VD for a vector of lanes.
template <class M>
inline typename M::R mvn_divisor(typename M::R var, typename M::R eps, bool eps_on_stddev) {
    return eps_on_stddev ? M::add(M::sqrt(var), eps) : M::sqrt(M::add(var, eps));
}

// 1 / divisor in T; 1 without variance normalisation.
template <class T>
inline T inv_divisor(T var, const VarianceNorm& v) {
    if (!v.normalize_variance) return T(1);
    return T(1) / mvn_divisor<ScalarMath<T>>(var, T(v.epsilon), v.epsilon_on_stddev);
}

// Whether 1 / divisor (computed in double) keeps its digits once rounded to
// the compute type E: the divisor well inside E's normal range. Compared
// squared, so the per-row check needs no square root.
template <class E>
inline bool divisor_in_range(double var, const VarianceNorm& v) {
    constexpr double min_divisor = sizeof(E) < sizeof(double) ? 0x1p-50 : 0x1p-400;
    if (!v.normalize_variance) return true;
    if (!v.epsilon_on_stddev) return var + v.epsilon >= min_divisor * min_divisor;
    const double short_by = min_divisor - v.epsilon;  // what sqrt(var) must reach
    return var >= 0 && (short_by <= 0 || var >= short_by * short_by);
}

}  // namespace
}  // namespace simdax::kernels
