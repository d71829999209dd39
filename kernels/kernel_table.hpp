// The contract between the planner (baseline code) and the per-ISA kernels.
//
// A kernel works on one dtype and one contiguous stretch of memory ("chunk"
// primitives) or on a block of contiguous lanes walked down a strided reduced
// axis ("cols" kernels). The planner turns every shape, stride and axis set
// into calls of these, so an ISA only has to make these fast.
//
// Every ISA provides a `const IsaKernels` table; an entry left nullptr is
// inherited from the parent ISA (dispatch/tables.cpp). The scalar table is
// complete.
#pragma once

#include <cstddef>
#include <cstdint>

#include "simdax/simdax.h"

namespace simdax {

enum class DType : int { f32 = 0, f16 = 1, bf16 = 2, f64 = 3 };
constexpr int kDTypeCount = 4;

// Online state of max and sum(exp(x - max)) over a group (LogSoftmax/Softmax).
// Empty state: max = -inf, sum = 0. A chunk whose maximum is -inf contributes
// max = -inf and sum = 0 (or NaN if it holds a NaN), so a group of only -inf
// ends with max = -inf, sum = 0, and the output formulas give NaN there.
// log_sum = log(sum) is set once per group after the reduction
// (dispatch/group_ops.hpp, finish_state): a group cut into many pieces would
// otherwise take a log per LogSoftmax output call.
struct MaxSum {
    double max;
    double sum;
    double log_sum;
};

// First maximum of a group in group order; NaN beats every number and the
// first NaN wins. Empty state: value = -inf, index = -1, nan = 0.
struct ArgMax {
    double value;
    int64_t index;  // position within the group
    int nan;
};

// Count, mean and sum of squared deviations (Chan et al. combination).
// Empty state: all zero.
struct Moments {
    double count;
    double mean;
    double m2;
};

// An activation, with the parameters of simdax_activation_desc.
struct ActParams {
    simdax_activation_type type;
    float alpha;
    float beta;
    float gamma;
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
    // A group outside the fast path's range (kernels/mvn_wide.hpp): y =
    // act(scale * (x - wide_mean) * wide_inv + bias), the affine map in the
    // wider type, the activation in double.
    bool wide;
    long double wide_mean, wide_inv;
};

// How a group's variance becomes the divisor of its deviations
// (kernels/mvn_divisor.hpp): sqrt(var + epsilon) with epsilon on the
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

// Kernels for one dtype. Pointers are to elements of that dtype; n, r, k are
// element counts (n, r, k >= 1); row strides are in elements.
struct DtypeKernels {
    // ---- chunk primitives (x, y contiguous) ----
    void (*maxsum)(const void* x, size_t n, MaxSum* state);
    void (*log_softmax_out)(const void* x, void* y, size_t n, const MaxSum* state);
    void (*softmax_out)(const void* x, void* y, size_t n, const MaxSum* state);
    void (*argmax)(const void* x, size_t n, int64_t base_index, ArgMax* state);
    void (*moments)(const void* x, size_t n, Moments* state);
    void (*normalize)(const void* x, void* y, size_t n, const NormArgs* args);
    void (*activation)(const void* x, void* y, size_t n, const ActParams* act);  // y may equal x
    // ---- cols kernels: k contiguous lanes, r rows; one group per lane ----
    void (*log_softmax_cols)(const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs,
                             ptrdiff_t yrs);
    void (*softmax_cols)(const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs,
                         ptrdiff_t yrs);
    void (*hardmax_cols)(const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs,
                         ptrdiff_t yrs);
    void (*mvn_cols)(const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs,
                     const MvnArgs* args);
    // ---- optional fused rows kernels (nullptr: the planner uses the chunk
    // primitives): `rows` groups of n contiguous elements, group g at
    // x + g*xrs (y + g*yrs), each group whole in one call ----
    void (*log_softmax_rows)(const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs,
                             ptrdiff_t yrs);
    void (*softmax_rows)(const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs,
                         ptrdiff_t yrs);
    void (*hardmax_rows)(const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs,
                         ptrdiff_t yrs);
    void (*mvn_rows)(const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs,
                     const MvnArgs* args);
};

struct IsaKernels {
    DtypeKernels dt[kDTypeCount];  // indexed by DType
};

}  // namespace simdax
