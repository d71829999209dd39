// Independent float64 reference for every simdax operator: the docs/spec.md
// formulas evaluated literally in double over strided inputs. Never calls
// library code (only the header's plain types are shared).
#pragma once

#include <cstdint>
#include <vector>

#include "simdax/simdax.h"
#include "support/dtype.hpp"

namespace sxt {

// A strided view of double values: element (i0..ir-1) is
// base[sum(ik * strides[k])]. strides has one entry per dimension (any sign,
// 0 = broadcast).
struct StridedView {
    const double* base = nullptr;
    std::vector<int64_t> sizes;
    std::vector<int64_t> strides;
};

int64_t element_count(const std::vector<int64_t>& sizes);
std::vector<int64_t> packed_strides(const std::vector<int64_t>& sizes);

// Softmax family over a set of axes (any order, distinct). The result is
// packed row-major over the input's sizes.
std::vector<double> ref_log_softmax(const StridedView& x, const std::vector<uint32_t>& axes);
std::vector<double> ref_softmax(const StridedView& x, const std::vector<uint32_t>& axes);
std::vector<double> ref_hardmax(const StridedView& x, const std::vector<uint32_t>& axes);

// One activation at one point (NaN in gives NaN out).
double ref_activation(double x, const simdax_activation_desc& act);
double ref_hard_sigmoid(double x, double alpha, double beta);

// MeanVarianceNormalization. scale/bias: nullptr when absent; otherwise the
// input's rank with each size equal to the input's or 1. act: nullptr = none.
struct MvnParams {
    const StridedView* scale = nullptr;
    const StridedView* bias = nullptr;
    bool normalize_variance = true;
    double epsilon = 1e-5;
    // Where epsilon goes: sqrt(var + epsilon) (DirectML), or sqrt(var) +
    // epsilon when true (ONNX).
    bool epsilon_on_stddev = false;
    const simdax_activation_desc* act = nullptr;
    // Unit roundoff u of the compute type (2^-24 for float32, float16 and
    // bfloat16 data, 2^-53 for float64): docs/mvn_range.md.
    double compute_eps = 0x1p-53;
};
// The result is act(v) with v the real Scale*(x - mean)*inv + Bias rounded
// to double. ranges (optional): per element, what docs/mvn_range.md accepts
// (the activation's values over v's allowed interval).
std::vector<double> ref_mvn(const StridedView& x, const std::vector<uint32_t>& axes, const MvnParams& p,
                            std::vector<RefRange>* ranges = nullptr);

// Element-wise operators, packed results.
std::vector<double> ref_activation_op(const StridedView& x, const simdax_activation_desc& act);
std::vector<double> ref_hard_sigmoid_op(const StridedView& x, double alpha, double beta);

}  // namespace sxt
