// The scalar steps on a row's AttnState the kernels and the executor share.
// The state is in natural units (AttnState): m = max(z), s = the sum of
// exp(z - m). Static: each TU (each ISA's flags) keeps its own copy.
#pragma once

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "attention_softmax/attention_softmax_slots.hpp"

namespace simdax::attn_state {

constexpr float kLog2e = 1.44269504088896340736f;
constexpr float kLn2 = 0.693147180559945309417f;
// softcap(z) = z where |z| < softcap * kSoftcapLinear: tanh(u) = u there
// within float's rounding, and z / softcap would lose bits in float's
// subnormals (a softcap near float's max).
constexpr float kSoftcapLinear = 0x1p-12f;

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

// The keys [j0, j1) a query at aligned position ip sees: all of them, or
// under a causal window those up to ip (with a sliding window: its last).
struct KeyWindow {
    int64_t j0, j1;
};
static inline KeyWindow key_window(simdax_causal causal, int64_t window, int64_t ip, int64_t keys) {
    KeyWindow w{0, keys};
    if (causal != SIMDAX_CAUSAL_NONE) {
        w.j1 = std::clamp<int64_t>(ip + 1, 0, keys);
        if (window) w.j0 = std::clamp<int64_t>(ip - window + 1, 0, w.j1);
    }
    return w;
}

static inline size_t mask_bytes(DType d) { return d == DType::f32 ? 4 : d == DType::u8 ? 1 : 2; }

// The log-sum-exp of a row that shows no key: the sink's logit, or -inf.
static inline float empty_lse(float sink) { return log_sum_exp(with_sink({-__builtin_inff(), 0.0f}, sink)); }

// Each query of q as the AttnRowArgs of its visible keys, to row(a); a
// query that sees no key gets its lse here and empty(y) for its whole row.
// esize: the bytes of a score.
template <class Row, class Empty>
static inline void for_each_query(const AttnQueries& q, size_t esize, Row row, Empty empty) {
    AttnRowArgs a = q.row;
    const size_t mesize = mask_bytes(q.row.mask_dtype);
    for (size_t i = 0; i < q.count; ++i) {
        const int64_t ip = q.first + int64_t(i);
        const KeyWindow w = key_window(q.causal, q.window, ip, q.keys);
        const char* x = q.x + ptrdiff_t(i) * q.x_step;
        char* y = q.y + ptrdiff_t(i) * q.y_step;
        a.lse = q.lse ? q.lse + ptrdiff_t(i) * q.lse_step : nullptr;
        if (w.j0 == w.j1) {
            if (a.lse) *a.lse = empty_lse(a.sink);
            empty(y);
            continue;
        }
        a.x = x + w.j0 * int64_t(esize);
        a.y = y + w.j0 * int64_t(esize);
        a.mask = q.mask ? q.mask + ptrdiff_t(i) * q.mask_step + w.j0 * int64_t(mesize) : nullptr;
        a.n = size_t(w.j1 - w.j0);
        a.pos = float(w.j0 - ip);
        a.before = size_t(w.j0);
        a.after = size_t(q.keys - w.j1);
        if (q.prefetch && i + 1 < q.count) {
            // Each row starts a new page, where the hardware prefetchers
            // restart: the next query's window, while this one computes.
            // Into L1 (locality 3): with a lower locality, rows of 1024 keys
            // streamed from memory took 1.3x as long on Zen 5.
            const char* next = static_cast<const char*>(a.x) + q.x_step;
            for (size_t line = 0; line < (a.n + 1) * esize; line += 64) __builtin_prefetch(next + line, 0, 3);
        }
        row(a);
    }
}

}  // namespace simdax::attn_state
