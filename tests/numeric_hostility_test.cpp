// Numerically hostile inputs (issue #6):
//  - denormal inputs in every dtype, every operator, rows and cols forms;
//  - groups of only -inf (softmax family NaN, Hardmax first, MVN NaN), in
//    every loop form and across the parts of a split group (> 65536
//    elements: the per-part states must combine an all -inf part);
//  - the largest finite magnitudes (+-3e38 float32/bfloat16, +-65504
//    float16, +-1.7e308 float64) must not overflow the softmax family;
//  - one float32 group of 2^24 + 1 elements: the sum of exponentials must
//    neither stall (a float accumulator stops growing at 2^24) nor lose the
//    tail.
// The caller's floating-point state: numeric_hostility_fp_env_test.cpp; the
// fuzzer's findings: numeric_hostility_fuzz_findings_test.cpp.
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
#include "support/tensor_buffer.hpp"

namespace {

using namespace sxt;

class NumericHostility : public ::testing::TestWithParam<simdax_dtype> {};

TEST_P(NumericHostility, DenormalInputs) {
    const simdax_dtype dt = GetParam();
    const auto gen = [dt](int64_t i) { return denormal_value(dt, i); };
    for (const OpSpec& spec : all_ops({1})) {
        SCOPED_TRACE(name_of(spec));
        run_checked(spec, dt, {4, 37}, gen);  // rows / contiguous
        OpSpec cols = spec;
        if (!cols.axes.empty()) cols.axes = {0};
        run_checked(cols, dt, {37, 4}, gen);          // cols
        run_checked(spec, dt, {4, 37}, gen, {1, 4});  // general (transposed)
    }
    // A whole group of subnormals: Softmax is uniform, Hardmax exact.
    Operands io{TensorBuffer(dt, {1, 50}, {}, Role::Input), nullptr, nullptr,
                TensorBuffer(dt, {1, 50}, {}, Role::Output)};
    io.x.fill([&](int64_t) { return min_subnormal(dt); });
    const CheckResult r = run_and_check(op_spec(SIMDAX_OPERATOR_SOFTMAX, {1}), io);
    EXPECT_TRUE(r.ok) << r.report;
    for (double v : io.y.read()) EXPECT_NEAR(v, 0.02, dt == SIMDAX_DTYPE_FLOAT64 ? 1e-15 : 1e-4);
}

TEST_P(NumericHostility, AllMinusInfinityGroups) {
    const simdax_dtype dt = GetParam();
    for (const FormCase& f : forms()) {
        SCOPED_TRACE(f.name);
        for (auto op : {SIMDAX_OPERATOR_LOG_SOFTMAX, SIMDAX_OPERATOR_SOFTMAX, SIMDAX_OPERATOR_HARDMAX,
                        SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION}) {
            SCOPED_TRACE(op_name(op));
            Operands io{TensorBuffer(dt, f.sizes, f.x_strides, Role::Input), nullptr, nullptr,
                        TensorBuffer(dt, f.sizes, {}, Role::Output)};
            io.x.fill([](int64_t) { return -kInf; });
            const CheckResult r = run_and_check(op_spec(op, f.axes), io);
            EXPECT_TRUE(r.ok) << r.report;
            const std::vector<double> y = io.y.read();
            // docs/spec.md: NaN throughout (softmax family, MVN); Hardmax's 1 first.
            if (op == SIMDAX_OPERATOR_HARDMAX) {
                const int64_t group = f.axes[0] == 1 ? f.sizes[1] : f.sizes[0];
                const int64_t stride = f.axes[0] == 1 ? 1 : f.sizes[1];
                for (int64_t j = 0; j < group; ++j)
                    ASSERT_EQ(y[size_t(j * stride)], j == 0 ? 1.0 : 0.0) << "position " << j;
            } else {
                for (double v : y) ASSERT_TRUE(std::isnan(v)) << v;
            }
        }
    }
}

// A split group whose first part (or last part, or a middle one) is all
// -inf: the parts' (max, sum) states must combine without NaN.
TEST_P(NumericHostility, MinusInfinityPartsOfASplitGroup) {
    const simdax_dtype dt = GetParam();
    const int64_t n = 200000;  // 4 parts of <= 65536
    const std::vector<std::pair<int64_t, int64_t>> inf_ranges{
        {0, 100000}, {100000, n}, {70000, 140000}, {0, n - 1}};
    for (const auto& rg : inf_ranges) {
        SCOPED_TRACE(::testing::Message() << "-inf over [" << rg.first << ", " << rg.second << ")");
        auto gen = [&](int64_t i) {
            return i >= rg.first && i < rg.second ? -kInf : double(i % 7) * 0.5 - 1.0;
        };
        for (auto op : {SIMDAX_OPERATOR_LOG_SOFTMAX, SIMDAX_OPERATOR_SOFTMAX, SIMDAX_OPERATOR_HARDMAX}) {
            SCOPED_TRACE(op_name(op));
            run_checked(op_spec(op, {1}), dt, {1, n}, gen);
        }
    }
}

// Rows of every length form (one vector, in registers, batched, the
// LogSoftmax pipeline, long rows) whose values fall from the max through
// the float exponential's underflow (x - max from 0 to -100, past
// ln(2^-126) = -87.3), with -inf keys among them: every output within the
// bound of the float64 reference, and a -inf key exactly 0 (Softmax) or
// -inf (LogSoftmax), docs/spec.md "Special values".
TEST_P(NumericHostility, ExponentialUnderflowBand) {
    const simdax_dtype dt = GetParam();
    for (const int64_t n : {int64_t(5), int64_t(24), int64_t(128), int64_t(1000), int64_t(20000)}) {
        SCOPED_TRACE(::testing::Message() << "rows of " << n);
        const auto gen = [n](int64_t i) {
            const int64_t k = i % n;
            return k % 11 == 3 ? -kInf : -100.0 * double(k) / double(n > 1 ? n - 1 : 1) + double(i / n);
        };
        for (auto op : {SIMDAX_OPERATOR_LOG_SOFTMAX, SIMDAX_OPERATOR_SOFTMAX}) {
            SCOPED_TRACE(op_name(op));
            Operands io{TensorBuffer(dt, {3, n}, {}, Role::Input), nullptr, nullptr,
                        TensorBuffer(dt, {3, n}, {}, Role::Output)};
            io.x.fill(gen);
            const CheckResult r = run_and_check(op_spec(op, {1}), io);
            EXPECT_TRUE(r.ok) << r.report;
            const std::vector<double> y = io.y.read();
            for (int64_t i = 0; i < 3 * n; ++i) {
                if (!std::isinf(gen(i))) continue;
                if (op == SIMDAX_OPERATOR_SOFTMAX)
                    ASSERT_EQ(y[size_t(i)], 0.0) << "at " << i;
                else
                    ASSERT_EQ(y[size_t(i)], -kInf) << "at " << i;
            }
        }
    }
}

TEST_P(NumericHostility, LargestFiniteMagnitudesDoNotOverflow) {
    const simdax_dtype dt = GetParam();
    const double big = dt == SIMDAX_DTYPE_FLOAT32 || dt == SIMDAX_DTYPE_BFLOAT16 ? 3e38 : max_finite(dt);
    const auto gen = [big](int64_t i) {
        switch (i % 5) {
            case 0: return big;
            case 1: return -big;
            case 2: return 0.0;
            case 3: return big * 0.5;
            default: return -1.0;
        }
    };
    for (const FormCase& f : forms()) {
        if (f.sizes[0] * f.sizes[1] > 1000) continue;
        SCOPED_TRACE(f.name);
        for (auto op : {SIMDAX_OPERATOR_LOG_SOFTMAX, SIMDAX_OPERATOR_SOFTMAX, SIMDAX_OPERATOR_HARDMAX}) {
            SCOPED_TRACE(op_name(op));
            run_checked(op_spec(op, f.axes), dt, f.sizes, gen, f.x_strides);
        }
    }
    // A group of only the largest value and its negation: Softmax puts
    // 1/count on every maximum, exactly representable here (4 maxima).
    Operands io{TensorBuffer(dt, {8}, {}, Role::Input), nullptr, nullptr,
                TensorBuffer(dt, {8}, {}, Role::Output)};
    io.x.fill([&](int64_t i) { return i % 2 ? big : -big; });
    const CheckResult r = run_and_check(op_spec(SIMDAX_OPERATOR_SOFTMAX, {0}), io);
    EXPECT_TRUE(r.ok) << r.report;
    const std::vector<double> y = io.y.read();
    for (size_t i = 0; i < y.size(); ++i) EXPECT_EQ(y[i], i % 2 ? 0.25 : 0.0) << i;
    // HardSigmoid and the activations saturate cleanly at +-big.
    for (const OpSpec& spec : all_ops({0})) {
        if (spec.op != SIMDAX_OPERATOR_HARD_SIGMOID && spec.op != SIMDAX_OPERATOR_ACTIVATION) continue;
        SCOPED_TRACE(name_of(spec));
        run_checked(spec, dt, {40}, gen);
    }
}

// Groups far from 0 (value = offset + small spread): the max subtraction
// must happen before any rounding that scales with the offset. Exact
// constant groups too (Softmax 1/n). Single-element groups, short rows
// (several groups per call) and long rows, rows and cols forms.
TEST_P(NumericHostility, LargeOffsetGroups) {
    const simdax_dtype dt = GetParam();
    const double cap = max_finite(dt);
    for (const double offset : {1e4, -1e4, 1e8, 1e10, -1e10, 1e20, -1e30, 3e38, -3e38, 1e300}) {
        if (std::fabs(offset) >= cap) continue;
        SCOPED_TRACE(::testing::Message() << "offset " << offset);
        for (const int64_t n : {int64_t(1), int64_t(2), int64_t(17), int64_t(2049)}) {
            SCOPED_TRACE(::testing::Message() << "group " << n);
            const double spread = std::fabs(offset) * 1e-6;
            auto gen = [&](int64_t i) { return offset + spread * double(i % 5); };
            auto constant = [&](int64_t) { return offset; };
            for (auto op : {SIMDAX_OPERATOR_LOG_SOFTMAX, SIMDAX_OPERATOR_SOFTMAX, SIMDAX_OPERATOR_HARDMAX}) {
                SCOPED_TRACE(op_name(op));
                run_checked(op_spec(op, {1}), dt, {5, n}, gen);       // rows
                run_checked(op_spec(op, {1}), dt, {5, n}, constant);  // rows, constant
                run_checked(op_spec(op, {0}), dt, {n, 5}, constant);  // cols, constant
            }
        }
    }
}

// MVN at the edges of the range, every loop form, with and without variance
// normalisation: deviations that overflow the compute type although the
// result is finite (Scale brings them back), an infinity among finite values
// (docs/spec.md's formula: mean +-inf, so x - mean is -+inf and the infinity's own
// output NaN; both signs or NORMALIZE_VARIANCE: NaN), and in float64,
// magnitudes whose squares overflow double and subnormal groups whose
// variance underflows it (epsilon 0). Found by the fuzzer (tests/fuzz
// corpus finding_mvn_*).
void run_mvn_edge(OpSpec spec, simdax_dtype dt, const FormCase& f, const std::function<double(int64_t)>& x,
                  const std::function<double(int64_t)>& scale, const std::function<double(int64_t)>& bias) {
    spec.axes = f.axes;
    Operands io{TensorBuffer(dt, f.sizes, f.x_strides, Role::Input, 1, 1), nullptr, nullptr,
                TensorBuffer(dt, f.sizes, {}, Role::Output, 1, 1)};
    io.x.fill(x);
    if (scale) {
        io.scale = std::make_unique<TensorBuffer>(dt, f.sizes, std::vector<int64_t>{}, Role::Input);
        io.scale->fill(scale);
    }
    if (bias) {
        std::vector<int64_t> bsizes = f.sizes;
        bsizes[f.axes[0]] = 1;  // broadcast over the group
        io.bias = std::make_unique<TensorBuffer>(dt, bsizes, std::vector<int64_t>{}, Role::Input);
        io.bias->fill(bias);
    }
    const CheckResult r = run_and_check(spec, io);
    EXPECT_TRUE(r.ok) << r.report;
}

TEST_P(NumericHostility, MvnAtTheEdgesOfTheRange) {
    const simdax_dtype dt = GetParam();
    const double big = max_finite(dt) * 0.9;
    const bool f64 = dt == SIMDAX_DTYPE_FLOAT64;
    for (const FormCase& f : forms()) {
        SCOPED_TRACE(f.name);
        for (const int nv : {1, 0}) {
            SCOPED_TRACE(nv ? "normalize_variance" : "mean only");
            OpSpec spec = op_spec(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, {1});
            spec.normalize_variance = nv != 0;
            const auto huge = [big](int64_t i) { return i % 3 == 0 ? big : -big * double(i % 5) * 0.25; };
            run_mvn_edge(spec, dt, f, huge, nullptr, nullptr);
            run_mvn_edge(
                spec, dt, f, huge, [](int64_t i) { return 0.25 + double(i % 3) * 0.125; },
                [big](int64_t i) { return i % 2 ? -big * 0.25 : 1.0; });
            // One +inf per group in most groups, -inf as well in some.
            const int64_t gsize = f.axes[0] == 1 ? f.sizes[1] : f.sizes[0];
            const auto with_inf = [&f, gsize](int64_t i) {
                const int64_t g = f.axes[0] == 1 ? i / f.sizes[1] : i % f.sizes[1];
                const int64_t j = f.axes[0] == 1 ? i % f.sizes[1] : i / f.sizes[1];
                if (j == (g * 7) % gsize) return kInf;
                if (g % 3 == 2 && j == (g * 7 + 1) % gsize) return -kInf;
                return double(j % 9) * 0.5 - 2.0;
            };
            run_mvn_edge(spec, dt, f, with_inf, nullptr, [](int64_t i) { return double(i % 3); });
            // Deviations inside the type that a Scale pushes beyond it, and
            // an activation brings back: gelu(-1e39) = -0, linear 1e-39 * x.
            // (Deviations below 1e38 / sqrt(n): the fast path's range.)
            const double dev = big * 1e-3, amp = nv ? big : 1e4;
            const auto spread = [dev](int64_t i) { return (i % 2 ? dev : -dev) * double(i % 3); };
            for (const auto act : {SIMDAX_ACTIVATION_GELU, SIMDAX_ACTIVATION_LINEAR}) {
                OpSpec sa = spec;
                sa.has_activation = true;
                sa.activation = spec_default_activation(act);
                if (act == SIMDAX_ACTIVATION_LINEAR) sa.activation.alpha = float(4.0 / big);
                run_mvn_edge(
                    sa, dt, f, spread, [amp](int64_t i) { return i % 4 < 2 ? amp : -amp; }, nullptr);
            }
            // A product beyond the type beside an infinite Bias is that
            // infinity: scale*v + bias rounded once (unfused: inf - inf).
            run_mvn_edge(
                spec, dt, f, [](int64_t i) { return double(i % 9) - 4.0; },
                [big](int64_t i) { return i % 2 ? big : -big; },
                [](int64_t i) { return i % 3 == 0   ? -kInf
                                       : i % 3 == 1 ? kInf
                                                    : 0.0; });
            if (dt == SIMDAX_DTYPE_FLOAT32)  // subnormal groups (~1000 float steps apart), huge Scale
                run_mvn_edge(
                    spec, dt, f, [](int64_t i) { return double(i % 5) * 1.5e-42; },
                    [big](int64_t i) { return i % 2 ? big : -big; }, nullptr);
            if (!f64) continue;
            run_mvn_edge(
                spec, dt, f, [](int64_t i) { return double(i % 7 + 1) * (i % 2 ? 1e243 : -3e242); }, nullptr,
                nullptr);
            OpSpec eps0 = spec;
            eps0.epsilon = 0.0f;
            run_mvn_edge(
                eps0, dt, f, [](int64_t i) { return double(i % 5) * 4e-320 - 8e-320; },
                [](int64_t i) { return 1.0 + double(i % 2); }, nullptr);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(AllDtypes, NumericHostility, ::testing::ValuesIn(kDtypes), dtype_param_name);

// ---- one float32 group of 2^24 + 1 elements ----------------------------------

// Runs op over one packed float32 group of x.size() elements into y.
void run_big_group(simdax_operator_type op, const std::vector<float>& x, std::vector<float>& y) {
    const int64_t sizes[1] = {int64_t(x.size())};
    const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 1, sizes, nullptr};
    const uint32_t axes[1] = {0};
    simdax_status s;
    if (op == SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION) {
        const simdax_mvn_desc d{&t, nullptr, nullptr, &t, 1, axes, 1, 1e-5f, nullptr};
        s = simdax_mean_variance_normalization(&d, x.data(), nullptr, nullptr, y.data());
    } else {
        const simdax_axes_op_desc d{&t, &t, 1, axes};
        s = op == SIMDAX_OPERATOR_SOFTMAX ? simdax_softmax(&d, x.data(), y.data())
                                          : simdax_log_softmax(&d, x.data(), y.data());
    }
    ASSERT_EQ(s, SIMDAX_OK) << simdax_last_error();
}

TEST(NumericHostilityBigGroup, SumOfTwoTo24PlusOneElementsNeitherStallsNorLosesTheTail) {
    const size_t n = (size_t(1) << 24) + 1;
    std::vector<float> x(n, 0.0f), y(n, -1.0f);
    // All zeros: every softmax output 1/(2^24+1), LogSoftmax -ln(2^24+1).
    const double dn = double(n);
    run_big_group(SIMDAX_OPERATOR_SOFTMAX, x, y);
    for (size_t i : {size_t(0), size_t(1) << 23, n - 2, n - 1})
        EXPECT_NEAR(y[i], 1.0 / dn, 1e-6 + 1e-5 / dn) << i;
    double sum = 0;
    for (float v : y) sum += v;
    EXPECT_NEAR(sum, 1.0, 1e-3);
    run_big_group(SIMDAX_OPERATOR_LOG_SOFTMAX, x, y);
    const double ls = -std::log(dn);
    for (size_t i : {size_t(0), size_t(1) << 23, n - 1}) EXPECT_NEAR(y[i], ls, 1e-5 * -ls) << i;

    // All -1 but the last element 0: a float accumulator of exp(-1) =
    // 0.37 steps stalls near 2^22-2^23 (ulp 0.5) and would be ~30% off;
    // the maximum sits in the tail, so a lost tail shows too.
    std::fill(x.begin(), x.end(), -1.0f);
    x[n - 1] = 0.0f;
    const double s = double(n - 1) * std::exp(-1.0) + 1.0;
    run_big_group(SIMDAX_OPERATOR_SOFTMAX, x, y);
    EXPECT_NEAR(y[n - 1], 1.0 / s, 1e-6 + 1e-5 / s);
    EXPECT_NEAR(y[0], std::exp(-1.0) / s, 1e-6 + 1e-5 * std::exp(-1.0) / s);
    EXPECT_NEAR(y[n / 2], std::exp(-1.0) / s, 1e-6 + 1e-5 * std::exp(-1.0) / s);
    run_big_group(SIMDAX_OPERATOR_LOG_SOFTMAX, x, y);
    EXPECT_NEAR(y[n - 1], -std::log(s), 1e-5 * std::log(s));
    EXPECT_NEAR(y[0], -1.0 - std::log(s), 1e-5 * (1.0 + std::log(s)));
    // The relative precision of these outputs is what shows a stall: the
    // float32 result must be within a few ulp of the exact one.
    EXPECT_NEAR(y[n - 1] / -std::log(s), 1.0, 4e-7);

    // MVN: a constant group normalises to exactly 0; a float mean that
    // stalled at 2^24 would leave (1 - 2^24/(2^24+1)) / sqrt(1e-5) ~ 1.9e-5.
    std::fill(x.begin(), x.end(), 1.0f);
    run_big_group(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, x, y);
    for (size_t i : {size_t(0), n / 2, n - 1}) EXPECT_NEAR(y[i], 0.0, 1e-5) << i;
    // MVN with the only outlier in the tail: mean 1/n, var (n-1)/n^2.
    std::fill(x.begin(), x.end(), 0.0f);
    x[n - 1] = 1.0f;
    run_big_group(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, x, y);
    const double mean = 1.0 / dn, var = (dn - 1.0) / (dn * dn);
    const double last = (1.0 - mean) / std::sqrt(var + double(1e-5f));
    const double other = -mean / std::sqrt(var + double(1e-5f));
    EXPECT_NEAR(y[n - 1], last, 1e-5 * std::max(1.0, last));
    EXPECT_NEAR(y[0], other, 1e-5);
}

}  // namespace
