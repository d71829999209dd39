// Which of the pair a softmax-family kernel computes, and the slot pair of
// one loop form generated from the one template that serves both (every
// ISA, the portable kernels included).
#pragma once

#include <cstddef>

namespace simdax::kernels {

enum class SoftmaxKind { softmax, log };

}  // namespace simdax::kernels

// log_softmax_<form> and softmax_<form> (kernel_slots.hpp) with parameters
// params, from the template softmax_or_log_<form><T, SoftmaxKind> called
// with args.
#define SIMDAX_SOFTMAX_KIND_PAIR(form, params, args)         \
    template <class T>                                       \
    void log_softmax_##form params {                         \
        softmax_or_log_##form<T, SoftmaxKind::log> args;     \
    }                                                        \
    template <class T>                                       \
    void softmax_##form params {                             \
        softmax_or_log_##form<T, SoftmaxKind::softmax> args; \
    }

#define SIMDAX_SOFTMAX_KIND_ROWS_SLOTS                                                                      \
    SIMDAX_SOFTMAX_KIND_PAIR(rows,                                                                          \
                             (const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs), \
                             (x, y, rows, n, xrs, yrs))

#define SIMDAX_SOFTMAX_KIND_COLS_SLOTS                                                                 \
    SIMDAX_SOFTMAX_KIND_PAIR(                                                                          \
        cols, (const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs, bool stream), \
        (x, y, r, k, xrs, yrs, stream))

// The lane-group halves of the cols form (cols_states, cols_apply).
#define SIMDAX_SOFTMAX_KIND_LANE_SLOTS                                                                       \
    SIMDAX_SOFTMAX_KIND_PAIR(cols_states,                                                                    \
                             (const void* x, size_t r, size_t k, ptrdiff_t xrs, size_t run, MaxSum* states), \
                             (x, r, k, xrs, run, states))                                                    \
    SIMDAX_SOFTMAX_KIND_PAIR(cols_apply,                                                                     \
                             (const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs,      \
                              size_t run, const MaxSum* states),                                             \
                             (x, y, r, k, xrs, yrs, run, states))
