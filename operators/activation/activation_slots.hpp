// The element-wise activations: their kernel slot (kernels/kernel_slots.hpp
// generates the table member, declarations and instantiations from it).
#pragma once

#include "kernel_types.hpp"

// y may equal x.
#define SIMDAX_ACTIVATION_SLOTS(X, A) \
    X(A, activation, (const void* x, void* y, size_t n, const ActParams* act))
