// Hardmax: its state types and its kernel slots, one line each
// X(A, name, parameters) (kernels/kernel_slots.hpp generates the table
// members, declarations and instantiations from them).
#pragma once

#include "kernel_types.hpp"

namespace simdax {

// First maximum of a group in group order; NaN beats every number and the
// first NaN wins. Empty state: value = -inf, index = -1, nan = 0.
struct ArgMax {
    double value;
    int64_t index;  // position within the group
    int nan;
};

}  // namespace simdax

#define SIMDAX_HARDMAX_SLOTS(X, A)                                                                 \
    X(A, argmax, (const void* x, size_t n, int64_t base_index, ArgMax* state))                     \
    X(A, hardmax_out, (void* y, size_t n, int64_t base_index, const ArgMax* state))                \
    X(A, hardmax_cols, (const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs)) \
    X(A, hardmax_rows, (const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs))
