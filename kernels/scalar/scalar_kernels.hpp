// Declarations of the portable kernels, one set per dtype suffix.
#pragma once

#include "kernel_table.hpp"
#include "scalar_types.hpp"

namespace simdax::kernels::scalar {

// X(storage type, dtype suffix) for every dtype, in DType order.
#define SIMDAX_SCALAR_FOR_EACH_DTYPE(X) \
    X(float, f32)                       \
    X(Half, f16)                        \
    X(BFloat, bf16)                     \
    X(double, f64)

#define SIMDAX_SCALAR_DECLARE(T, sfx)                                                          \
    void maxsum_##sfx(const void*, size_t, MaxSum*);                                           \
    void log_softmax_out_##sfx(const void*, void*, size_t, const MaxSum*);                     \
    void softmax_out_##sfx(const void*, void*, size_t, const MaxSum*);                         \
    void argmax_##sfx(const void*, size_t, int64_t, ArgMax*);                                  \
    void moments_##sfx(const void*, size_t, Moments*);                                         \
    void normalize_##sfx(const void*, void*, size_t, const NormArgs*);                         \
    void activation_##sfx(const void*, void*, size_t, const ActParams*);                       \
    void log_softmax_cols_##sfx(const void*, void*, size_t, size_t, ptrdiff_t, ptrdiff_t);     \
    void softmax_cols_##sfx(const void*, void*, size_t, size_t, ptrdiff_t, ptrdiff_t);         \
    void hardmax_cols_##sfx(const void*, void*, size_t, size_t, ptrdiff_t, ptrdiff_t);         \
    void mvn_cols_##sfx(const void*, void*, size_t, size_t, ptrdiff_t, ptrdiff_t,              \
                        const MvnArgs*);
SIMDAX_SCALAR_FOR_EACH_DTYPE(SIMDAX_SCALAR_DECLARE)
#undef SIMDAX_SCALAR_DECLARE

// The activation of one element, in the compute type.
template <class Acc>
Acc activate(Acc x, const ActParams& a);

extern const IsaKernels kTable;

}  // namespace simdax::kernels::scalar
