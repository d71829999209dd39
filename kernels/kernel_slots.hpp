// The one list of kernel slots: each operator's list (its <name>_slots.hpp)
// once. Each line is X(A, name, parameters); A is passed through untouched
// (a dtype, or nothing). The table type
// (kernel_table.hpp), every ISA's declarations, explicit instantiations and
// table (kernel_list.hpp, kernels/scalar) are generated from this list by
// name, so a slot can only ever hold the kernel of its own name.
//
// Adding a kernel: one line in its operator's list, its template in the
// operator's header of every ISA; the table fills itself. Pointers are to elements of the slot's
// dtype; n, r, k are element counts (>= 1); row strides are in elements.
#pragma once

#include "activation/activation_slots.hpp"
#include "attention_softmax/attention_softmax_slots.hpp"
#include "cast/cast_slots.hpp"
#include "hardmax/hardmax_slots.hpp"
#include "layer_norm/layer_norm_slots.hpp"
#include "mvn/mvn_slots.hpp"
#include "softmax/softmax_slots.hpp"

// Every operator's slots (operators/<name>/<name>_slots.hpp).
#define SIMDAX_KERNEL_SLOTS(X, A)        \
    SIMDAX_SOFTMAX_SLOTS(X, A)           \
    SIMDAX_HARDMAX_SLOTS(X, A)           \
    SIMDAX_MVN_SLOTS(X, A)               \
    SIMDAX_ACTIVATION_SLOTS(X, A)        \
    SIMDAX_CAST_SLOTS(X, A)              \
    SIMDAX_ATTENTION_SOFTMAX_SLOTS(X, A) \
    SIMDAX_LAYER_NORM_SLOTS(X, A)

// Generators over the list, for an ISA namespace whose kernels are
// templates over the storage type: `template <class T> void name(...)`.
#define SIMDAX_SLOT_DECLARE(A, name, params) \
    template <class T>                       \
    void name params;
#define SIMDAX_SLOT_INSTANTIATE(T, name, params) template void name<T> params;
#define SIMDAX_SLOT_ASSIGN(T, name, params) k.name = &name<T>;
#define SIMDAX_SLOT_OVERRIDE(A, name, params) \
    if (src.name) dst->name = src.name;

// In an ISA namespace after the declarations: every slot of that ISA's
// templates for storage type T, filled by name.
#define SIMDAX_DEFINE_ALL_SLOTS                    \
    template <class T>                             \
    constexpr DtypeKernels all_slots() {           \
        DtypeKernels k{};                          \
        SIMDAX_KERNEL_SLOTS(SIMDAX_SLOT_ASSIGN, T) \
        return k;                                  \
    }
