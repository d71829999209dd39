// The one fold of LogSoftmax/Softmax partial states (max, sum of
// exp(x - max)), used by every ISA's chunk kernels and by dispatch to
// combine the parts of a group.
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

}  // namespace
}  // namespace simdax::kernels
