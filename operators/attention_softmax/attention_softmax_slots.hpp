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
    float sink;   // attention_rows: a logit in the denominator only (-inf: none)
    bool log;     // LogSoftmax
    float* lse;   // attention_rows: the row's log-sum-exp (nullptr: not wanted)
    // attention_rows: the keys the causal window excludes on each side,
    // contiguous with y, which it fills with 0 (LogSoftmax: -inf); stream:
    // the output is beyond the caches, written with non-temporal stores.
    size_t before, after;
    bool stream;
};

// Consecutive queries of one head, each row's keys contiguous in x, y and
// mask: query q's row starts q * *_step bytes after the first's (its lse q
// * lse_step floats after), and its visible keys are key_window's. The
// shared fields of each row (mask_dtype, scale, softcap, slope, sink, log,
// stream) are in row; its per-row fields are derived. One call for many
// rows: a row of 128 keys costs about as much as the call around it.
struct AttnQueries {
    AttnRowArgs row;
    const char* x;
    char* y;
    const char* mask;  // nullptr: none
    float* lse;        // nullptr: not wanted
    ptrdiff_t x_step, y_step, mask_step, lse_step;
    size_t count;   // queries, >= 1
    int64_t keys;   // per row (the key axis)
    int64_t first;  // the first query's aligned position (bottom-right: shifted)
    simdax_causal causal;
    int64_t window;  // 0: none
    bool prefetch;   // beyond the caches: fetch the next query's keys early
};

// A row's running state: m = max of the logits, s = sum of exp(z - m).
// Empty: {-inf, 0}; NaN m: the row's output is NaN.
struct AttnState {
    float m;
    float s;
};

}  // namespace simdax

// attention_rows: whole rows of queries: y, the keys each row's window
// excludes and each lse written, sink included. attention_stats: adds these
// keys to a row's state. attention_out: writes these keys' outputs from a row's finished state
// (sink included, row max > -inf or NaN). Float64 scores are refused by
// validation: their kernels do nothing.
#define SIMDAX_ATTENTION_SOFTMAX_SLOTS(X, A)                        \
    X(A, attention_rows, (const AttnQueries* q))                    \
    X(A, attention_stats, (const AttnRowArgs* a, AttnState* state)) \
    X(A, attention_out, (const AttnRowArgs* a, const AttnState* state))
