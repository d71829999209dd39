// Shared by the numeric_hostility_*_test.cpp files: every operator as an
// OpSpec, the edges of each dtype's range, and a checked run on packed input.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "simdax/simdax.h"
#include "support/dtype.hpp"
#include "support/op_runner.hpp"
#include "support/random_case.hpp"
#include "support/reference.hpp"
#include "support/tensor_buffer.hpp"

namespace sxt {

inline const double kInf = std::numeric_limits<double>::infinity();
inline const std::vector<simdax_dtype> kDtypes{SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_FLOAT16,
                                               SIMDAX_DTYPE_BFLOAT16, SIMDAX_DTYPE_FLOAT64};

inline std::string dtype_param_name(const ::testing::TestParamInfo<simdax_dtype>& i) {
    return dtype_name(i.param);
}

// Every operator: the softmax family and MVN over `axes`, HardSigmoid, and
// standalone activations (a few with their docs/spec.md defaults).
inline std::vector<OpSpec> all_ops(std::vector<uint32_t> axes) {
    std::vector<OpSpec> v;
    for (auto op : {SIMDAX_OPERATOR_LOG_SOFTMAX, SIMDAX_OPERATOR_SOFTMAX, SIMDAX_OPERATOR_HARDMAX,
                    SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION})
        v.push_back(op_spec(op, axes));
    OpSpec mvn_act = op_spec(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, axes);
    mvn_act.has_activation = true;
    mvn_act.activation = spec_default_activation(SIMDAX_ACTIVATION_GELU);
    v.push_back(mvn_act);
    OpSpec hs = op_spec(SIMDAX_OPERATOR_HARD_SIGMOID);
    v.push_back(hs);
    for (auto t : {SIMDAX_ACTIVATION_IDENTITY, SIMDAX_ACTIVATION_RELU, SIMDAX_ACTIVATION_ELU,
                   SIMDAX_ACTIVATION_SIGMOID, SIMDAX_ACTIVATION_TANH, SIMDAX_ACTIVATION_SOFTPLUS,
                   SIMDAX_ACTIVATION_SOFTSIGN, SIMDAX_ACTIVATION_GELU}) {
        OpSpec a = op_spec(SIMDAX_OPERATOR_ACTIVATION);
        a.activation = spec_default_activation(t);
        v.push_back(a);
    }
    return v;
}

inline std::string name_of(const OpSpec& s) {
    std::string n = op_name(s.op);
    if (s.op == SIMDAX_OPERATOR_ACTIVATION || s.has_activation)
        n += std::string(" ") + spec_activation_name(s.activation.type);
    return n;
}

// Runs spec on packed input values of the given shape (the output packed,
// or with out_strides) and checks the reference and canaries.
inline void run_checked(const OpSpec& spec, simdax_dtype dt, const std::vector<int64_t>& sizes,
                        const std::function<double(int64_t)>& gen,
                        const std::vector<int64_t>& x_strides = {}) {
    Operands io{TensorBuffer(dt, sizes, x_strides, Role::Input, 1, 1), nullptr, nullptr,
                TensorBuffer(dt, sizes, {}, Role::Output, 1, 1)};
    io.x.fill(gen);
    const CheckResult r = run_and_check(spec, io);
    EXPECT_TRUE(r.ok) << r.report;
}

// The smallest positive subnormal and the smallest normal of a dtype.
inline double min_subnormal(simdax_dtype dt) {
    switch (dt) {
        case SIMDAX_DTYPE_FLOAT16: return std::ldexp(1.0, -24);
        case SIMDAX_DTYPE_BFLOAT16: return std::ldexp(1.0, -133);
        case SIMDAX_DTYPE_FLOAT64: return std::numeric_limits<double>::denorm_min();
        default: return std::ldexp(1.0, -149);
    }
}
inline double min_normal(simdax_dtype dt) {
    switch (dt) {
        case SIMDAX_DTYPE_FLOAT16: return std::ldexp(1.0, -14);
        case SIMDAX_DTYPE_FLOAT64: return std::numeric_limits<double>::min();
        default: return std::ldexp(1.0, -126);
    }
}
inline double max_finite(simdax_dtype dt) {
    switch (dt) {
        case SIMDAX_DTYPE_FLOAT16: return 65504.0;
        case SIMDAX_DTYPE_BFLOAT16: return 3.3895313892515355e38;
        case SIMDAX_DTYPE_FLOAT64: return std::numeric_limits<double>::max();
        default: return double(std::numeric_limits<float>::max());
    }
}

// Subnormals of the dtype, both signs, zeros among them, and a few normals
// just above the subnormal range.
inline double denormal_value(simdax_dtype dt, int64_t i) {
    const double sub = min_subnormal(dt), norm = min_normal(dt);
    switch (i % 7) {
        case 0: return double(i % 13) * sub;
        case 1: return -double(i % 11 + 1) * sub;
        case 2: return norm - sub * double(i % 5 + 1);  // the largest subnormals
        case 3: return -(norm - sub);
        case 4: return i % 2 ? 0.0 : -0.0;
        case 5: return norm * double(i % 3 + 1);
        default: return sub;
    }
}

// Shapes of every loop form: rows, cols, general, and a group split into
// parts (> 65536 elements), each with the reduced axis 1.
struct FormCase {
    const char* name;
    std::vector<int64_t> sizes;
    std::vector<uint32_t> axes;
    std::vector<int64_t> x_strides;
};
inline std::vector<FormCase> forms() {
    return {{"rows", {3, 40}, {1}, {}},
            {"cols", {40, 3}, {0}, {}},
            {"general", {3, 40}, {1}, {1, 3}},
            {"parts", {1, 70001}, {1}, {}},
            {"parts general", {70001, 1}, {0}, {1, 1}}};
}

}  // namespace sxt
