// LogSoftmax and Softmax: its state types and its kernel slots, one line each
// X(A, name, parameters) (kernels/kernel_slots.hpp generates the table
// members, declarations and instantiations from them).
#pragma once

#include "kernel_types.hpp"

namespace simdax {

// Online state of max and sum(exp(x - max)) over a group (LogSoftmax/Softmax).
// Empty state: max = -inf, sum = 0. A chunk whose maximum is -inf contributes
// max = -inf and sum = 0 (or NaN if it holds a NaN), so a group of only -inf
// ends with max = -inf, sum = 0, and the output formulas give NaN there.
// log_sum = log(sum) is set once per group after the reduction
// (operators/softmax/softmax_operator.cpp, finish): a group cut into many pieces would
// otherwise take a log per LogSoftmax output call.
struct MaxSum {
    double max;
    double sum;
    double log_sum;
};

}  // namespace simdax

// Chunk primitives: x, y contiguous, one piece of a group. Cols kernels: k
// contiguous lanes walked down r rows, one group per lane; cols_states and
// cols_apply are their halves for groups of `run` consecutive lanes (k a
// multiple of run, run <= kMaxLaneRun): the state of each group, finished
// (LogSoftmax: log_sum set), then the output from the states. Rows kernels:
// `rows` whole groups of n contiguous elements, group g at x + g*xrs.
// stream (softmax cols): the operation's input and output together outgrow
// L2 (the executor's decision, from the whole tensor): y is written with
// non-temporal stores.
#define SIMDAX_SOFTMAX_SLOTS(X, A)                                                                        \
    X(A, maxsum, (const void* x, size_t n, MaxSum* state))                                                \
    X(A, log_softmax_out, (const void* x, void* y, size_t n, const MaxSum* state))                        \
    X(A, softmax_out, (const void* x, void* y, size_t n, const MaxSum* state))                            \
    X(A, log_softmax_cols,                                                                                \
      (const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs, bool stream))            \
    X(A, softmax_cols,                                                                                    \
      (const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs, bool stream))            \
    X(A, log_softmax_cols_states,                                                                         \
      (const void* x, size_t r, size_t k, ptrdiff_t xrs, size_t run, MaxSum* states))                     \
    X(A, softmax_cols_states,                                                                             \
      (const void* x, size_t r, size_t k, ptrdiff_t xrs, size_t run, MaxSum* states))                     \
    X(A, log_softmax_cols_apply,                                                                          \
      (const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs, size_t run,              \
       const MaxSum* states))                                                                             \
    X(A, softmax_cols_apply,                                                                              \
      (const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs, size_t run,              \
       const MaxSum* states))                                                                             \
    X(A, log_softmax_rows, (const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs)) \
    X(A, softmax_rows, (const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs))
