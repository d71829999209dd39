// AttentionSoftmax: the arguments of its row kernels and its kernel slots,
// one line each X(A, name, parameters) (kernels/kernel_slots.hpp generates
// the table members, declarations and instantiations from them).
#pragma once

#include "kernel_types.hpp"

namespace simdax {

// Some consecutive visible keys of one row, contiguous in x, y and mask.
// Key j of them has the logit
//   z = softcap(x[j] * scale) + mask[j] + slope * (pos + j)
// (softcap 0: off; a uint8 mask: 0 masks the key, whose score is not read).
struct AttnRowArgs {
    const void* x;
    void* y;
    const void* mask;  // nullptr: none
    DType mask_dtype;  // f32, f16, bf16 or u8
    size_t n;          // keys, >= 1
    float scale;
    float softcap;
    float slope;  // ALiBi (0: none)
    float pos;    // the first key's position minus the query's aligned position
    float sink;   // attention_row: a logit in the denominator only (-inf: none)
    bool log;     // LogSoftmax
    float* lse;   // attention_row: the row's log-sum-exp (nullptr: not wanted)
    // attention_row: the keys the causal window excludes on each side,
    // contiguous with y, which it fills with 0 (LogSoftmax: -inf); stream:
    // the output is beyond the caches, written with non-temporal stores.
    size_t before, after;
    bool stream;
};

// A row's running state: m = max of the logits, s = sum of exp(z - m).
// Empty: {-inf, 0}; NaN m: the row's output is NaN.
struct AttnState {
    float m;
    float s;
};

}  // namespace simdax

// attention_row: one row's visible keys, whole: y, the excluded keys
// around them and *lse written, sink included. attention_stats: adds these
// keys to a row's state. attention_out: writes these keys' outputs from a row's finished state
// (sink included, row max > -inf or NaN). Float64 scores are refused by
// validation: their kernels do nothing.
#define SIMDAX_ATTENTION_SOFTMAX_SLOTS(X, A)                        \
    X(A, attention_row, (const AttnRowArgs* a))                     \
    X(A, attention_stats, (const AttnRowArgs* a, AttnState* state)) \
    X(A, attention_out, (const AttnRowArgs* a, const AttnState* state))
