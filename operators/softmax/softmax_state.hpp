// The folds of LogSoftmax/Softmax partial states (max, sum of exp(x - max)),
// used by every ISA's chunk kernels and by dispatch to combine the parts (or
// the lanes) of a group.
#pragma once

#include <cmath>

#include "kernel_table.hpp"

namespace simdax::kernels {
// Internal linkage: each ISA's translation unit keeps its own copy, built
// with its own flags.
namespace {

// Folds a block's (max cm, sum cs relative to cm) into the state. A side
// whose max equals the new max keeps its sum unscaled, so an all -inf
// prefix (sum 0) never meets exp(-inf - -inf).
inline void combine_maxsum(MaxSum* s, double cm, double cs) {
    if (s->max == -__builtin_inf() && s->sum == 0.0) {
        s->max = cm;
        s->sum = cs;
        return;
    }
    const double m = s->max;
    const double nm = cm > m ? cm : m;
    const double fo = (m == nm) ? 1.0 : std::exp(m - nm);
    const double fn = (cm == nm) ? 1.0 : std::exp(cm - nm);
    s->sum = s->sum * fo + cs * fn;
    s->max = nm;
}

// The state of n partial states at once (the lanes of a group): the max
// first, so that each sum is scaled once. scaled_total(m) returns the sum
// over i of sum[i] * exp(max[i] - m), exp(0) = 1 exactly; it is not called
// when every max is -inf (then every sum is 0).
template <class ScaledTotal>
inline MaxSum fold_maxsum(const double* max, size_t n, ScaledTotal scaled_total) {
    double m = -__builtin_inf();
    bool nan = false;
    for (size_t i = 0; i < n; ++i) {
        nan |= max[i] != max[i];
        m = max[i] > m ? max[i] : m;
    }
    if (nan) return MaxSum{__builtin_nan(""), __builtin_nan(""), 0.0};
    return MaxSum{m, m == -__builtin_inf() ? 0.0 : scaled_total(m), 0.0};
}

}  // namespace
}  // namespace simdax::kernels
