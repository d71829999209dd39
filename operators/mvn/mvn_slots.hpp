// MeanVarianceNormalization: its state types and its kernel slots, one line each
// X(A, name, parameters) (kernels/kernel_slots.hpp generates the table
// members, declarations and instantiations from them).
#pragma once

#include "kernel_types.hpp"

namespace simdax {

// Count, mean and sum of squared deviations (Chan et al. combination).
// Empty state: all zero.
struct Moments {
    double count;
    double mean;
    double m2;
};

// y = act(scale * (x - mean) * inv_std + bias) over a chunk. scale/bias NULL
// mean 1 / 0; otherwise element i uses scale[i * scale_stride] (stride 0 =
// one value for the whole chunk).
struct NormArgs {
    double mean;
    double inv_std;  // 1 / divisor (VarianceNorm below); 1 when variance is not normalised
    const void* scale;
    ptrdiff_t scale_stride;
    const void* bias;
    ptrdiff_t bias_stride;
    ActParams act;
    // A group outside the fast path's range (operators/mvn/mvn_wide.hpp): y =
    // act(scale * (x - wide_mean) * wide_inv + bias), the affine map in the
    // wider type, the activation in double.
    bool wide;
    long double wide_mean, wide_inv;
};

// How a group's variance becomes the divisor of its deviations
// (operators/mvn/mvn_divisor.hpp): sqrt(var + epsilon) with epsilon on the
// variance (DirectML), sqrt(var) + epsilon on the standard deviation (ONNX);
// 1 without variance normalisation.
struct VarianceNorm {
    bool normalize_variance;
    bool epsilon_on_stddev;
    double epsilon;
};

// MVN over many groups at once. Rows kernel: element e of group g uses
// scale[g*scale_rs + e*scale_ks]; cols kernel: lane l of row j uses
// scale[j*scale_rs + l*scale_ks] (likewise bias).
struct MvnArgs {
    VarianceNorm vn;
    const void* scale;
    ptrdiff_t scale_rs, scale_ks;
    const void* bias;
    ptrdiff_t bias_rs, bias_ks;
    ActParams act;
};

}  // namespace simdax

#define SIMDAX_MVN_SLOTS(X, A)                                                                         \
    X(A, moments, (const void* x, size_t n, Moments* state))                                           \
    X(A, normalize, (const void* x, void* y, size_t n, const NormArgs* args))                          \
    X(A, mvn_cols,                                                                                     \
      (const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs, const MvnArgs* args)) \
    X(A, mvn_rows,                                                                                     \
      (const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs, const MvnArgs* args))
