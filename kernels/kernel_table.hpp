// The contract between the planner (baseline code) and the per-ISA kernels.
//
// A kernel works on one dtype and one contiguous stretch of memory ("chunk"
// primitives) or on a block of contiguous lanes walked down a strided reduced
// axis ("cols" kernels). The planner turns every shape, stride and axis set
// into calls of these, so an ISA only has to make these fast.
//
// Every ISA provides a `const IsaKernels` table; an entry left nullptr is
// inherited from the parent ISA (dispatch/tables.cpp). Every composed table
// is complete: each slot of every dtype is filled.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernel_slots.hpp"
#include "simdax/simdax.h"

namespace simdax {

enum class DType : int { f32 = 0, f16 = 1, bf16 = 2, f64 = 3 };
constexpr int kDTypeCount = 4;

// Online state of max and sum(exp(x - max)) over a group (LogSoftmax/Softmax).
// Empty state: max = -inf, sum = 0. A chunk whose maximum is -inf contributes
// max = -inf and sum = 0 (or NaN if it holds a NaN), so a group of only -inf
// ends with max = -inf, sum = 0, and the output formulas give NaN there.
// log_sum = log(sum) is set once per group after the reduction
// (operators/softmax/softmax_operator.cpp, finish): a group cut into many pieces would
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

// Kernels for one dtype, one member per slot of kernel_slots.hpp.
#define SIMDAX_SLOT_MEMBER(A, name, params) void(*name) params = nullptr;
struct DtypeKernels {
    SIMDAX_KERNEL_SLOTS(SIMDAX_SLOT_MEMBER, _)
};
#undef SIMDAX_SLOT_MEMBER

// What the kernels of an ISA need to know of the CPU beyond its ISA
// (dispatch/cpu_features.cpp decodes it).
struct CpuFacts {
    // map() (kernels/simd/map.hpp) spreads its non-temporal stores over four
    // pages at once: true on Intel, where that covers more memory latency;
    // AMD cores keep fewer write-combining streams and lose by it.
    bool interleave_streams;
    // AVX512-BF16's VCVTNEPS2BF16 may be used (the avx512 level does not
    // imply it).
    bool avx512bf16;
};

struct IsaKernels {
    DtypeKernels dt[kDTypeCount];  // indexed by DType
    // The ISA's own copy of the facts its kernels read, or nullptr when they
    // read none. Dispatch fills it once, when it composes the table, before
    // any kernel of the ISA can be reached.
    CpuFacts* facts = nullptr;
};

}  // namespace simdax
