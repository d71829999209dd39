// Which of the pair a softmax-family kernel computes, and the slot pair of
// one loop form generated from the one template that serves both (every
// ISA, the portable kernels included).
#pragma once

#include <cstddef>

namespace simdax::kernels {

enum class SoftmaxKind { softmax, log };

}  // namespace simdax::kernels

// log_softmax_<form> and softmax_<form> (kernel_slots.hpp) for the
// template softmax_or_log_<form><T, SoftmaxKind>; form is cols or rows
// (their parameters: r, k or rows, n).
#define SIMDAX_SOFTMAX_KIND_SLOTS(form)                                                   \
    template <class T>                                                                    \
    void log_softmax_##form(const void* x, void* y, size_t a, size_t b, ptrdiff_t xrs,    \
                            ptrdiff_t yrs) {                                              \
        softmax_or_log_##form<T, SoftmaxKind::log>(x, y, a, b, xrs, yrs);                 \
    }                                                                                     \
    template <class T>                                                                    \
    void softmax_##form(const void* x, void* y, size_t a, size_t b, ptrdiff_t xrs,        \
                        ptrdiff_t yrs) {                                                  \
        softmax_or_log_##form<T, SoftmaxKind::softmax>(x, y, a, b, xrs, yrs);             \
    }

// The same for the lane-group halves of the cols form (cols_states,
// cols_apply), from softmax_or_log_cols_states / _apply<T, SoftmaxKind>.
#define SIMDAX_SOFTMAX_KIND_LANE_SLOTS                                                         \
    template <class T>                                                                         \
    void log_softmax_cols_states(const void* x, size_t r, size_t k, ptrdiff_t xrs, size_t run, \
                                 MaxSum* states) {                                             \
        softmax_or_log_cols_states<T, SoftmaxKind::log>(x, r, k, xrs, run, states);            \
    }                                                                                          \
    template <class T>                                                                         \
    void softmax_cols_states(const void* x, size_t r, size_t k, ptrdiff_t xrs, size_t run,     \
                             MaxSum* states) {                                                 \
        softmax_or_log_cols_states<T, SoftmaxKind::softmax>(x, r, k, xrs, run, states);        \
    }                                                                                          \
    template <class T>                                                                         \
    void log_softmax_cols_apply(const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs,     \
                                ptrdiff_t yrs, size_t run, const MaxSum* states) {             \
        softmax_or_log_cols_apply<T, SoftmaxKind::log>(x, y, r, k, xrs, yrs, run, states);     \
    }                                                                                          \
    template <class T>                                                                         \
    void softmax_cols_apply(const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs,         \
                            ptrdiff_t yrs, size_t run, const MaxSum* states) {                 \
        softmax_or_log_cols_apply<T, SoftmaxKind::softmax>(x, y, r, k, xrs, yrs, run, states); \
    }
