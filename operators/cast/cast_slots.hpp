// Cast: one slot per output dtype, each a template over the input's storage
// type (kernels/kernel_slots.hpp generates the table members, declarations
// and instantiations from them). x, y contiguous; n elements.
#pragma once

#include "kernel_types.hpp"

#define SIMDAX_CAST_SLOTS(X, A)                            \
    X(A, cast_to_f32, (const void* x, void* y, size_t n))  \
    X(A, cast_to_f16, (const void* x, void* y, size_t n))  \
    X(A, cast_to_bf16, (const void* x, void* y, size_t n)) \
    X(A, cast_to_f64, (const void* x, void* y, size_t n))
