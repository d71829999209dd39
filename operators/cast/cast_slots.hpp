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

// An ISA's four kernels from its cast_run<T, U>(x, y, n); H and B are its
// float16 and bfloat16 storage types.
// clang-format off
#define SIMDAX_DEFINE_CAST_KERNELS(H, B)                                                                  \
    template <class T> void cast_to_f32(const void* x, void* y, size_t n) { cast_run<T, float>(x, y, n); } \
    template <class T> void cast_to_f16(const void* x, void* y, size_t n) { cast_run<T, H>(x, y, n); }     \
    template <class T> void cast_to_bf16(const void* x, void* y, size_t n) { cast_run<T, B>(x, y, n); }    \
    template <class T> void cast_to_f64(const void* x, void* y, size_t n) { cast_run<T, double>(x, y, n); }
// clang-format on
