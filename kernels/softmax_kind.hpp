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
