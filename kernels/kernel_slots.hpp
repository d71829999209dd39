// The one list of kernel slots. Each line is X(A, name, parameters); A is
// passed through untouched (a dtype, or nothing). The table type
// (kernel_table.hpp), every ISA's declarations, explicit instantiations and
// table (kernel_list.hpp, kernels/scalar) are generated from this list by
// name, so a slot can only ever hold the kernel of its own name.
//
// Adding a kernel: one line here, its template in the operator's header of
// every ISA; the table fills itself. Pointers are to elements of the slot's
// dtype; n, r, k are element counts (>= 1); row strides are in elements.
#pragma once

#include <cstddef>

namespace simdax::kernels {
constexpr size_t kMaxLaneRun = 512;  // cols_states/cols_apply: lanes per group at most
// Outputs of at least this many bytes are written with non-temporal stores
// (beyond L2, a store would first read its line for ownership).
constexpr size_t kStreamBytes = size_t(2) << 20;
}  // namespace simdax::kernels

// Chunk primitives: x, y contiguous, one piece of a group. Cols kernels: k
// contiguous lanes walked down r rows, one group per lane; cols_states and
// cols_apply are their halves for groups of `run` consecutive lanes (k a
// multiple of run, run <= kMaxLaneRun): the state of each group, finished
// (LogSoftmax: log_sum set), then the output from the states. Rows kernels:
// `rows` whole groups of n contiguous elements, group g at x + g*xrs.
// stream (softmax cols): the operation's input and output together outgrow
// L2 (the executor's decision, from the whole tensor): y is written with
// non-temporal stores.
#define SIMDAX_SOFTMAX_SLOTS(X, A)                                                          \
    X(A, maxsum, (const void* x, size_t n, MaxSum* state))                                  \
    X(A, log_softmax_out, (const void* x, void* y, size_t n, const MaxSum* state))         \
    X(A, softmax_out, (const void* x, void* y, size_t n, const MaxSum* state))             \
    X(A, log_softmax_cols,                                                                  \
      (const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs, bool stream)) \
    X(A, softmax_cols,                                                                      \
      (const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs, bool stream)) \
    X(A, log_softmax_cols_states,                                                           \
      (const void* x, size_t r, size_t k, ptrdiff_t xrs, size_t run, MaxSum* states))       \
    X(A, softmax_cols_states,                                                               \
      (const void* x, size_t r, size_t k, ptrdiff_t xrs, size_t run, MaxSum* states))       \
    X(A, log_softmax_cols_apply, (const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, \
                                  ptrdiff_t yrs, size_t run, const MaxSum* states))         \
    X(A, softmax_cols_apply, (const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs,    \
                              ptrdiff_t yrs, size_t run, const MaxSum* states))             \
    X(A, log_softmax_rows,                                                                  \
      (const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs))        \
    X(A, softmax_rows,                                                                      \
      (const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs))

#define SIMDAX_HARDMAX_SLOTS(X, A)                                                          \
    X(A, argmax, (const void* x, size_t n, int64_t base_index, ArgMax* state))              \
    X(A, hardmax_out, (void* y, size_t n, int64_t base_index, const ArgMax* state))         \
    X(A, hardmax_cols, (const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs)) \
    X(A, hardmax_rows,                                                                      \
      (const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs))

#define SIMDAX_MVN_SLOTS(X, A)                                                              \
    X(A, moments, (const void* x, size_t n, Moments* state))                                \
    X(A, normalize, (const void* x, void* y, size_t n, const NormArgs* args))               \
    X(A, mvn_cols, (const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs, \
                    const MvnArgs* args))                                                   \
    X(A, mvn_rows, (const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs,           \
                    ptrdiff_t yrs, const MvnArgs* args))

// y may equal x.
#define SIMDAX_ACTIVATION_SLOTS(X, A) \
    X(A, activation, (const void* x, void* y, size_t n, const ActParams* act))

#define SIMDAX_KERNEL_SLOTS(X, A) \
    SIMDAX_SOFTMAX_SLOTS(X, A)    \
    SIMDAX_HARDMAX_SLOTS(X, A)    \
    SIMDAX_MVN_SLOTS(X, A)        \
    SIMDAX_ACTIVATION_SLOTS(X, A)

// Generators over the list, for an ISA namespace whose kernels are
// templates over the storage type: `template <class T> void name(...)`.
#define SIMDAX_SLOT_DECLARE(A, name, params) template <class T> void name params;
#define SIMDAX_SLOT_INSTANTIATE(T, name, params) template void name<T> params;
#define SIMDAX_SLOT_ASSIGN(T, name, params) k.name = &name<T>;
#define SIMDAX_SLOT_OVERRIDE(A, name, params) \
    if (src.name) dst->name = src.name;

// In an ISA namespace after the declarations: every slot of that ISA's
// templates for storage type T, filled by name.
#define SIMDAX_DEFINE_ALL_SLOTS                       \
    template <class T>                                \
    constexpr DtypeKernels all_slots() {              \
        DtypeKernels k{};                             \
        SIMDAX_KERNEL_SLOTS(SIMDAX_SLOT_ASSIGN, T)    \
        return k;                                     \
    }
