// Numerically hostile inputs found by the fuzzer (tests/fuzz), each kept as
// a test of its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfenv>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define SIMDAX_TEST_X86 1
#endif
#include "simdax/simdax.h"
#include "support/dtype.hpp"
#include "support/hostile_inputs.hpp"
#include "support/op_runner.hpp"
#include "support/random_case.hpp"
#include "support/reference.hpp"
#include "support/single_axis_op.hpp"
#include "support/tensor_buffer.hpp"

namespace {

using namespace sxt;

// ---- found by the fuzzer (tests/fuzz) ---------------------------------------

// Epsilon 0 and variance below ~1e-77: 1/sqrt(var) is beyond float, yet
// the outputs are ~+-1 (every loop form, Scale/Bias/activation, mixed groups).
TEST(NumericHostilityFuzzFindings, MvnTinyVarianceWithEpsilonZero) {
    for (const simdax_dtype dt : {SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_BFLOAT16}) {
        SCOPED_TRACE(dtype_name(dt));
        OpSpec spec = op_spec(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, {1});
        spec.epsilon = 0.0f;
        run_checked(spec, dt, {3, 8}, [](int64_t i) { return double(i % 4) * 1e-40; });
        for (const FormCase& f : forms()) {
            SCOPED_TRACE(f.name);
            OpSpec fs = spec;
            fs.axes = f.axes;
            const auto tiny = [](int64_t i) { return double(i % 4) * 1e-40 - 3e-40; };
            run_checked(fs, dt, f.sizes, tiny, f.x_strides);
            // Scale (full), Bias (broadcast over the group), ELU fused.
            std::vector<int64_t> bsizes = f.sizes;
            bsizes[f.axes[0]] = 1;
            Operands io{TensorBuffer(dt, f.sizes, f.x_strides, Role::Input), nullptr, nullptr,
                        TensorBuffer(dt, f.sizes, {}, Role::Output)};
            io.scale = std::make_unique<TensorBuffer>(dt, f.sizes, std::vector<int64_t>{}, Role::Input);
            io.bias = std::make_unique<TensorBuffer>(dt, bsizes, std::vector<int64_t>{}, Role::Input);
            io.x.fill(tiny);
            io.scale->fill([](int64_t i) { return 0.5 + double(i % 3) * 0.25; });
            io.bias->fill([](int64_t i) { return double(i % 5) * 0.125 - 0.25; });
            fs.has_activation = true;
            fs.activation = spec_default_activation(SIMDAX_ACTIVATION_ELU);
            const CheckResult r = run_and_check(fs, io);
            EXPECT_TRUE(r.ok) << r.report;
        }
        // Tiny and ordinary groups side by side: rows, and lanes of one cols
        // block.
        const auto mixed = [](int64_t group, int64_t j) {
            return double(j % 4) * (group % 2 ? 1e-40 : 0.25);
        };
        run_checked(spec, dt, {11, 16}, [&](int64_t i) { return mixed(i / 16, i % 16); });
        OpSpec cols = spec;
        cols.axes = {0};
        run_checked(cols, dt, {16, 11}, [&](int64_t i) { return mixed(i % 11, i / 11); });
    }
}

// CELU, alpha < 0: alpha * expm1(x / alpha) is -inf where it overflows, and
// finite where only expm1 would (|alpha| < 1).
TEST(NumericHostilityFuzzFindings, CeluNegativeAlphaOverflowsToMinusInfinity) {
    for (const simdax_dtype dt : kDtypes) {
        SCOPED_TRACE(dtype_name(dt));
        OpSpec spec = op_spec(SIMDAX_OPERATOR_ACTIVATION);
        spec.activation = simdax_activation_desc{SIMDAX_ACTIVATION_CELU, -1.625f, 0, 0};
        run_checked(spec, dt, {40}, [dt](int64_t i) { return -max_finite(dt) / double(i % 4 + 1); });
        // ln(max) <= x / alpha < ln(max / |alpha|): finite results near the top.
        const double top = std::log(max_finite(dt));
        spec.activation.alpha = -0.125f;
        run_checked(spec, dt, {40}, [top](int64_t i) { return -0.125 * (top + 0.25 * double(i % 8)); });
    }
}

// Softplus of x near the largest finite value: steepness * x (parametric:
// beta * x) overflows, the result does not.
TEST(NumericHostilityFuzzFindings, SoftplusOfHugeInputStaysFinite) {
    for (const simdax_dtype dt : {SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_BFLOAT16, SIMDAX_DTYPE_FLOAT64}) {
        SCOPED_TRACE(dtype_name(dt));
        OpSpec spec = op_spec(SIMDAX_OPERATOR_ACTIVATION);
        spec.activation = simdax_activation_desc{SIMDAX_ACTIVATION_SOFTPLUS, 2.625f, 0, 0};
        const double m = 0.88 * max_finite(dt);  // 3e38 in float
        const auto huge = [m](int64_t i) { return (i % 2 ? m : -m) / double(i % 4 + 1); };
        run_checked(spec, dt, {40}, huge);
        spec.activation.alpha = -2.625f;
        run_checked(spec, dt, {40}, huge);
        spec.activation = simdax_activation_desc{SIMDAX_ACTIVATION_PARAMETRIC_SOFTPLUS, 0.25f, 8.0f, 0};
        run_checked(spec, dt, {40}, huge);
    }
}

// An empty tensor has no elements whatever its other sizes and strides:
// docs/spec.md says every operator accepts it (non-empty ones still overflow).
TEST(NumericHostilityFuzzFindings, EmptyTensorWithHugeSizesIsAccepted) {
    const int64_t big = std::numeric_limits<int64_t>::max();
    const int64_t sizes[2] = {big, 0};
    const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 2, sizes, nullptr};
    const uint32_t axes[1] = {1};
    const simdax_softmax_desc d{&t, &t, 1, axes};
    EXPECT_EQ(simdax_softmax(&d, nullptr, nullptr), SIMDAX_OK) << simdax_last_error();
    const int64_t sizes2[2] = {0, 65}, strides2[2] = {1, big};
    const simdax_tensor_desc t2{SIMDAX_DTYPE_FLOAT32, 2, sizes2, strides2};
    const simdax_tensor_desc y2{SIMDAX_DTYPE_FLOAT32, 2, sizes2, nullptr};
    const simdax_softmax_desc d2{&t2, &y2, 1, axes};
    EXPECT_EQ(simdax_softmax(&d2, nullptr, nullptr), SIMDAX_OK) << simdax_last_error();
    // Packed strides of [big, big, 0] and an output stride 0 (no overlap
    // without elements); MVN with an empty Scale.
    const int64_t sizes3[3] = {big, big, 0}, ystrides3[3] = {0, 0, std::numeric_limits<int64_t>::min()};
    const simdax_tensor_desc x3{SIMDAX_DTYPE_FLOAT64, 3, sizes3, nullptr};
    const simdax_tensor_desc y3{SIMDAX_DTYPE_FLOAT64, 3, sizes3, ystrides3};
    const uint32_t axes3[2] = {0, 2};
    const simdax_mvn_desc m{&x3, &x3, nullptr, &y3, 2, axes3, 1, 0.0f, nullptr};
    EXPECT_EQ(simdax_mean_variance_normalization(&m, nullptr, nullptr, nullptr, nullptr), SIMDAX_OK)
        << simdax_last_error();
    // Not empty: the same sizes and strides are still rejected.
    const int64_t sizes4[2] = {big, 2}, sizes5[2] = {1, 65};
    const simdax_tensor_desc t4{SIMDAX_DTYPE_FLOAT32, 2, sizes4, nullptr};
    const simdax_softmax_desc d4{&t4, &t4, 1, axes};
    EXPECT_EQ(simdax_softmax(&d4, nullptr, nullptr), SIMDAX_ERROR_OVERFLOW);
    EXPECT_NE(std::string(simdax_last_error()).find("input.sizes"), std::string::npos) << simdax_last_error();
    const simdax_tensor_desc t5{SIMDAX_DTYPE_FLOAT32, 2, sizes5, strides2};
    const simdax_tensor_desc y5{SIMDAX_DTYPE_FLOAT32, 2, sizes5, nullptr};
    const simdax_softmax_desc d5{&t5, &y5, 1, axes};
    EXPECT_EQ(simdax_softmax(&d5, nullptr, nullptr), SIMDAX_ERROR_OVERFLOW);
    EXPECT_NE(std::string(simdax_last_error()).find("input.strides"), std::string::npos)
        << simdax_last_error();
    // A Scale of size 1 where the input is empty is not empty itself.
    const int64_t sc6[3] = {big, big, 1};
    const simdax_tensor_desc s6{SIMDAX_DTYPE_FLOAT64, 3, sc6, nullptr};
    const simdax_mvn_desc m6{&x3, &s6, nullptr, &y3, 2, axes3, 1, 0.0f, nullptr};
    EXPECT_EQ(simdax_mean_variance_normalization(&m6, nullptr, nullptr, nullptr, nullptr),
              SIMDAX_ERROR_OVERFLOW);
    EXPECT_NE(std::string(simdax_last_error()).find("scale.sizes"), std::string::npos) << simdax_last_error();
}

// Strides whose farthest byte is representable but whose end (one element
// past it) is not: rejected, since the planner forms that end in int64
// (signed overflow before). One that fits is accepted, and execute's
// overlap test on it (address + span near 2^63) must not overflow either.
TEST(NumericHostilityFuzzFindings, HugeStrideSpanIsRejectedOrOverflowFree) {
    const int64_t sizes[1] = {2};
    const int64_t bad[1] = {std::numeric_limits<int64_t>::max() / 4};  // 4 * (s + 1) = 2^63
    const simdax_tensor_desc x{SIMDAX_DTYPE_FLOAT32, 1, sizes, bad};
    const simdax_tensor_desc y{SIMDAX_DTYPE_FLOAT32, 1, sizes, nullptr};
    simdax_operator* op = nullptr;
    EXPECT_EQ(create_single_axis_op(SIMDAX_OPERATOR_SOFTMAX, x, y, 0, &op), SIMDAX_ERROR_OVERFLOW);
    EXPECT_EQ(op, nullptr);
    const int64_t ok[1] = {std::numeric_limits<int64_t>::max() / 4 - 1};
    const simdax_tensor_desc x2{SIMDAX_DTYPE_FLOAT32, 1, sizes, ok};
    ASSERT_EQ(create_single_axis_op(SIMDAX_OPERATOR_SOFTMAX, x2, y, 0, &op), SIMDAX_OK)
        << simdax_last_error();
    std::vector<float> buf(64);
    const simdax_bindings b{buf.data(), nullptr, nullptr, buf.data() + 8};
    EXPECT_EQ(simdax_operator_execute(op, &b), SIMDAX_ERROR_OVERLAP);  // nothing read
    simdax_operator_destroy(op);
}

// Cols form with a negative row stride: the prefetch address row + 8 * stride
// was formed with an unsigned 8 (a huge offset, pointer overflow under
// UBSan); it is formed only for rows inside the tensor now.
TEST(NumericHostilityFuzzFindings, ColsWithNegativeRowStride) {
    for (const simdax_dtype dt : kDtypes) {
        SCOPED_TRACE(dtype_name(dt));
        const auto gen = [](int64_t i) { return double(i % 13) * 0.25 - 1.0; };
        for (const simdax_operator_type op :
             {SIMDAX_OPERATOR_SOFTMAX, SIMDAX_OPERATOR_LOG_SOFTMAX, SIMDAX_OPERATOR_HARDMAX,
              SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION})
            run_checked(op_spec(op, {0}), dt, {20, 33}, gen, {-33, 1});
    }
}

// Activation parameters whose product overflows although the result is
// finite: scaled_elu's gamma*alpha (times expm1(0) = 0 gave NaN),
// parametric softplus's alpha*beta (or underflows to 0: NaN on +inf),
// linear's alpha*x before + beta.
TEST(NumericHostilityFuzzFindings, ActivationParameterProductsDoNotOverflow) {
    for (const simdax_dtype dt : {SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_BFLOAT16, SIMDAX_DTYPE_FLOAT16}) {
        SCOPED_TRACE(dtype_name(dt));
        OpSpec spec = op_spec(SIMDAX_OPERATOR_ACTIVATION);
        const auto small = [](int64_t i) { return i % 3 == 0 ? 0.0 : -double(i % 7) * 1e-3; };
        spec.activation = simdax_activation_desc{SIMDAX_ACTIVATION_SCALED_ELU, 1e30f, 0, 1e30f};
        run_checked(spec, dt, {40}, small);
        spec.activation = simdax_activation_desc{SIMDAX_ACTIVATION_PARAMETRIC_SOFTPLUS, 1e20f, 1e20f, 0};
        run_checked(spec, dt, {40}, [](int64_t i) { return double(i % 5) * 1e-25; });
        // ... and one that underflows to 0: alpha*beta*inf is inf, not 0*inf.
        spec.activation = simdax_activation_desc{SIMDAX_ACTIVATION_PARAMETRIC_SOFTPLUS, 1e-40f, 1e-40f, 0};
        run_checked(spec, dt, {40}, [](int64_t i) { return i % 3 == 0 ? INFINITY : double(i % 5) * 1e30; });
    }
    OpSpec lin = op_spec(SIMDAX_OPERATOR_ACTIVATION);
    lin.activation = simdax_activation_desc{SIMDAX_ACTIVATION_LINEAR, 2.0f, -FLT_MAX, 0};
    run_checked(lin, SIMDAX_DTYPE_FLOAT32, {40}, [](int64_t i) { return FLT_MAX / double(1 + i % 2); });
}

// HardSigmoid with alpha 0 on +-inf: docs/spec.md's formula in IEEE arithmetic has
// 0 * inf = NaN, and the clamp propagates it (the reference returned 0, an
// artefact of std::max/min argument order; the kernels already gave NaN).
TEST(NumericHostilityFuzzFindings, HardSigmoidZeroAlphaOnInfinityIsNaN) {
    for (const simdax_dtype dt : kDtypes) {
        SCOPED_TRACE(dtype_name(dt));
        OpSpec spec = op_spec(SIMDAX_OPERATOR_HARD_SIGMOID);
        spec.alpha = 0.0f;
        spec.beta = 0.75f;
        const auto gen = [](int64_t i) {
            return i % 3 == 0 ? INFINITY : (i % 3 == 1 ? -INFINITY : double(i));
        };
        run_checked(spec, dt, {37}, gen);
        EXPECT_TRUE(std::isnan(ref_hard_sigmoid(INFINITY, 0.0, 0.75)));
        EXPECT_EQ(ref_hard_sigmoid(5.0, 0.0, 0.75), 0.75);
    }
}

// MVN with a Scale broadcast over the group holding +-inf: the rows kernel
// folded inv_std * scale and mean_lo * inv_std * scale (inf * 0 = NaN for
// the whole row); docs/spec.md's scale * (x - mean) / std is +-inf.
// A group of zeros and one smallest subnormal: its mean (the subnormal / n)
// and every square underflow in float, yet a Scale near the top makes the
// mean's share of x - mean visible (the fast path must not take it as an
// all-zero group).
TEST(NumericHostilityFuzzFindings, MvnLoneSubnormalUnderAHugeScale) {
    for (const simdax_dtype dt : kDtypes) {
        SCOPED_TRACE(dtype_name(dt));
        const int min_exp = dt == SIMDAX_DTYPE_FLOAT16    ? -24
                            : dt == SIMDAX_DTYPE_BFLOAT16 ? -133
                            : dt == SIMDAX_DTYPE_FLOAT64  ? -1074
                                                          : -149;
        const double top = dt == SIMDAX_DTYPE_FLOAT16 ? 6e4 : dt == SIMDAX_DTYPE_FLOAT64 ? 1e308 : 3e38;
        for (const FormCase& f : forms()) {
            SCOPED_TRACE(f.name);
            OpSpec spec = op_spec(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, f.axes);
            Operands io{TensorBuffer(dt, f.sizes, f.x_strides, Role::Input), nullptr, nullptr,
                        TensorBuffer(dt, f.sizes, {}, Role::Output)};
            io.scale = std::make_unique<TensorBuffer>(dt, f.sizes, std::vector<int64_t>{}, Role::Input);
            io.x.fill([&](int64_t i) { return i % 8 == 5 ? -std::ldexp(1.0, min_exp) : 0.0; });
            io.scale->fill([&](int64_t) { return top; });
            const CheckResult r = run_and_check(spec, io);
            EXPECT_TRUE(r.ok) << r.report;
        }
    }
}

// MVN with Scale and Bias broadcast over the row, and x[0] far from the
// mean. The rows kernel folded bias - mean_lo*inv*scale into one constant,
// which went past the top (+inf) where scale*z + bias is finite or -inf
// (the fuzzer: +inf where -inf is due). Tiny Scales too.
TEST(NumericHostilityFuzzFindings, MvnFoldedBiasBeyondTheTop) {
    for (const simdax_dtype dt : kDtypes) {
        SCOPED_TRACE(dtype_name(dt));
        const double top = max_finite(dt);
        for (const int64_t n : {8, 16, 37, 100}) {
            for (const double scale : {0.3 * top, 0.9 * top, -0.3 * top, 1e-30, 3e-38}) {
                for (const double bias : {0.88 * top, -0.88 * top, 0.0}) {
                    SCOPED_TRACE("n " + std::to_string(n) + " scale " + std::to_string(scale) + " bias " +
                                 std::to_string(bias));
                    OpSpec spec = op_spec(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, {1});
                    Operands io{TensorBuffer(dt, {3, n}, {}, Role::Input), nullptr, nullptr,
                                TensorBuffer(dt, {3, n}, {}, Role::Output)};
                    io.scale = std::make_unique<TensorBuffer>(dt, std::vector<int64_t>{1, 1},
                                                              std::vector<int64_t>{}, Role::Input);
                    io.bias = std::make_unique<TensorBuffer>(dt, std::vector<int64_t>{1, 1},
                                                             std::vector<int64_t>{}, Role::Input);
                    // Row r: x[0] = +big, x[1] = -4 big, the rest small.
                    const double big = dt == SIMDAX_DTYPE_FLOAT16 ? 1e3 : 1e14;
                    io.x.fill([&](int64_t i) {
                        const int64_t e = i % n, r = i / n;
                        return e == 0 ? big : e == 1 ? -4 * big : double((e + r) % 5) - 2.0;
                    });
                    io.scale->fill([&](int64_t) { return scale; });
                    io.bias->fill([&](int64_t) { return bias; });
                    const CheckResult r = run_and_check(spec, io);
                    EXPECT_TRUE(r.ok) << r.report;
                }
            }
        }
    }
}

TEST(NumericHostilityFuzzFindings, MvnInfiniteBroadcastScale) {
    for (const simdax_dtype dt : kDtypes) {
        SCOPED_TRACE(dtype_name(dt));
        for (const FormCase& f : forms()) {
            SCOPED_TRACE(f.name);
            OpSpec spec = op_spec(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, f.axes);
            std::vector<int64_t> ssizes = f.sizes;
            ssizes[f.axes[0]] = 1;
            Operands io{TensorBuffer(dt, f.sizes, f.x_strides, Role::Input), nullptr, nullptr,
                        TensorBuffer(dt, f.sizes, {}, Role::Output)};
            io.scale = std::make_unique<TensorBuffer>(dt, ssizes, std::vector<int64_t>{}, Role::Input);
            io.x.fill([](int64_t i) { return double(i % 7) * 0.5 + 0.1; });
            io.scale->fill([](int64_t i) { return i % 2 ? -INFINITY : INFINITY; });
            const CheckResult r = run_and_check(spec, io);
            EXPECT_TRUE(r.ok) << r.report;
        }
    }
}

}  // namespace
