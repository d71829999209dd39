// The scalar steps on a row's AttnState the kernels and the executor share.
// The state is in natural units (AttnState): m = max(z), s = the sum of
// exp(z - m). Static: each TU (each ISA's flags) keeps its own copy.
#pragma once

#include <cmath>

#include "attention_softmax/attention_softmax_slots.hpp"

namespace simdax::attn_state {

constexpr float kLog2e = 1.44269504088896340736f;
constexpr float kLn2 = 0.693147180559945309417f;

// Adds a part of max m and sum s (relative to m) to st.
static inline void combine(AttnState* st, float m, float s) {
    if (std::isnan(m) || std::isnan(st->m)) {
        *st = {m + st->m, m + st->m};  // NaN
        return;
    }
    if (!(m > -__builtin_inff())) return;  // an empty part
    if (m > st->m) {
        st->s = st->s * std::exp(st->m - m) + s;
        st->m = m;
    } else {
        st->s += s * std::exp(m - st->m);
    }
}

// The state with the sink's logit (natural; -inf: none) in the denominator.
static inline AttnState with_sink(AttnState st, float sink) {
    combine(&st, sink, 1.0f);
    return st;
}

// The natural log of the denominator: -inf for an empty row.
static inline float log_sum_exp(const AttnState& st) {
    return st.s > 0.0f || std::isnan(st.s) ? st.m + std::log(st.s) : -__builtin_inff();
}

}  // namespace simdax::attn_state
