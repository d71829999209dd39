// Numerically hostile inputs and the caller's floating-point state (issue #6):
//  - denormal inputs in every dtype, every operator, rows and cols forms;
//  - groups of only -inf (softmax family NaN, Hardmax first, MVN NaN), in
//    every loop form and across the parts of a split group (> 65536
//    elements: the per-part states must combine an all -inf part);
//  - the largest finite magnitudes (+-3e38 float32/bfloat16, +-65504
//    float16, +-1.7e308 float64) must not overflow the softmax family;
//  - one float32 group of 2^24 + 1 elements: the sum of exponentials must
//    neither stall (a float accumulator stops growing at 2^24) nor lose the
//    tail;
//  - x86: MXCSR flush-to-zero / denormals-are-zero set by the caller: the
//    results stay within docs/spec.md;
//  - the caller's floating-point environment (rounding mode, exception
//    flags, MXCSR, x87 control word) is the same after every simdax call.
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
#include "support/op_runner.hpp"
#include "support/random_case.hpp"
#include "support/reference.hpp"
#include "support/tensor_buffer.hpp"

namespace {

using namespace sxt;

const double kInf = std::numeric_limits<double>::infinity();
const std::vector<simdax_dtype> kDtypes{SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_FLOAT16,
                                        SIMDAX_DTYPE_BFLOAT16, SIMDAX_DTYPE_FLOAT64};

std::string dtype_param_name(const ::testing::TestParamInfo<simdax_dtype>& i) {
    return dtype_name(i.param);
}

// Every operator: the softmax family and MVN over `axes`, HardSigmoid, and
// standalone activations (a few with their docs/spec.md defaults).
std::vector<OpSpec> all_ops(std::vector<uint32_t> axes) {
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

std::string name_of(const OpSpec& s) {
    std::string n = op_name(s.op);
    if (s.op == SIMDAX_OPERATOR_ACTIVATION || s.has_activation)
        n += std::string(" ") + spec_activation_name(s.activation.type);
    return n;
}

// Runs spec on packed input values of the given shape (the output packed,
// or with out_strides) and checks the reference and canaries.
void run_checked(const OpSpec& spec, simdax_dtype dt, const std::vector<int64_t>& sizes,
                 const std::function<double(int64_t)>& gen,
                 const std::vector<int64_t>& x_strides = {}) {
    Operands io{TensorBuffer(dt, sizes, x_strides, Role::Input, 1, 1), nullptr, nullptr,
                TensorBuffer(dt, sizes, {}, Role::Output, 1, 1)};
    io.x.fill(gen);
    const CheckResult r = run_and_check(spec, io);
    EXPECT_TRUE(r.ok) << r.report;
}

// The smallest positive subnormal and the smallest normal of a dtype.
double min_subnormal(simdax_dtype dt) {
    switch (dt) {
        case SIMDAX_DTYPE_FLOAT16: return std::ldexp(1.0, -24);
        case SIMDAX_DTYPE_BFLOAT16: return std::ldexp(1.0, -133);
        case SIMDAX_DTYPE_FLOAT64: return std::numeric_limits<double>::denorm_min();
        default: return std::ldexp(1.0, -149);
    }
}
double min_normal(simdax_dtype dt) {
    switch (dt) {
        case SIMDAX_DTYPE_FLOAT16: return std::ldexp(1.0, -14);
        case SIMDAX_DTYPE_FLOAT64: return std::numeric_limits<double>::min();
        default: return std::ldexp(1.0, -126);
    }
}
double max_finite(simdax_dtype dt) {
    switch (dt) {
        case SIMDAX_DTYPE_FLOAT16: return 65504.0;
        case SIMDAX_DTYPE_BFLOAT16: return 3.3895313892515355e38;
        case SIMDAX_DTYPE_FLOAT64: return std::numeric_limits<double>::max();
        default: return double(std::numeric_limits<float>::max());
    }
}

// Subnormals of the dtype, both signs, zeros among them, and a few normals
// just above the subnormal range.
double denormal_value(simdax_dtype dt, int64_t i) {
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

class NumericHostility : public ::testing::TestWithParam<simdax_dtype> {};

TEST_P(NumericHostility, DenormalInputs) {
    const simdax_dtype dt = GetParam();
    const auto gen = [dt](int64_t i) { return denormal_value(dt, i); };
    for (const OpSpec& spec : all_ops({1})) {
        SCOPED_TRACE(name_of(spec));
        run_checked(spec, dt, {4, 37}, gen);  // rows / contiguous
        OpSpec cols = spec;
        if (!cols.axes.empty()) cols.axes = {0};
        run_checked(cols, dt, {37, 4}, gen);  // cols
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

// Shapes of every loop form: rows, cols, general, and a group split into
// parts (> 65536 elements), each with the reduced axis 1.
struct FormCase {
    const char* name;
    std::vector<int64_t> sizes;
    std::vector<uint32_t> axes;
    std::vector<int64_t> x_strides;
};
std::vector<FormCase> forms() {
    return {{"rows", {3, 40}, {1}, {}},
            {"cols", {40, 3}, {0}, {}},
            {"general", {3, 40}, {1}, {1, 3}},
            {"parts", {1, 70001}, {1}, {}},
            {"parts general", {70001, 1}, {0}, {1, 1}}};
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

TEST_P(NumericHostility, LargestFiniteMagnitudesDoNotOverflow) {
    const simdax_dtype dt = GetParam();
    const double big = dt == SIMDAX_DTYPE_FLOAT32 || dt == SIMDAX_DTYPE_BFLOAT16 ? 3e38
                                                                                 : max_finite(dt);
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
            for (auto op : {SIMDAX_OPERATOR_LOG_SOFTMAX, SIMDAX_OPERATOR_SOFTMAX,
                            SIMDAX_OPERATOR_HARDMAX}) {
                SCOPED_TRACE(op_name(op));
                run_checked(op_spec(op, {1}), dt, {5, n}, gen);        // rows
                run_checked(op_spec(op, {1}), dt, {5, n}, constant);   // rows, constant
                run_checked(op_spec(op, {0}), dt, {n, 5}, constant);   // cols, constant
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
            run_mvn_edge(spec, dt, f, huge, [](int64_t i) { return 0.25 + double(i % 3) * 0.125; },
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
                run_mvn_edge(sa, dt, f, spread, [amp](int64_t i) { return i % 4 < 2 ? amp : -amp; }, nullptr);
            }
            // A product beyond the type beside an infinite Bias is that
            // infinity: scale*v + bias rounded once (unfused: inf - inf).
            run_mvn_edge(spec, dt, f, [](int64_t i) { return double(i % 9) - 4.0; },
                         [big](int64_t i) { return i % 2 ? big : -big; },
                         [](int64_t i) { return i % 3 == 0 ? -kInf : i % 3 == 1 ? kInf : 0.0; });
            if (dt == SIMDAX_DTYPE_FLOAT32)  // subnormal groups (~1000 float steps apart), huge Scale
                run_mvn_edge(spec, dt, f, [](int64_t i) { return double(i % 5) * 1.5e-42; },
                             [big](int64_t i) { return i % 2 ? big : -big; }, nullptr);
            if (!f64) continue;
            run_mvn_edge(spec, dt, f, [](int64_t i) { return double(i % 7 + 1) * (i % 2 ? 1e243 : -3e242); },
                         nullptr, nullptr);
            OpSpec eps0 = spec;
            eps0.epsilon = 0.0f;
            run_mvn_edge(eps0, dt, f, [](int64_t i) { return double(i % 5) * 4e-320 - 8e-320; },
                         [](int64_t i) { return 1.0 + double(i % 2); }, nullptr);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(AllDtypes, NumericHostility, ::testing::ValuesIn(kDtypes),
                         dtype_param_name);

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

// ---- the caller's floating-point environment ---------------------------------

// What a caller can set and simdax must leave as it found it.
struct FpState {
    int round;
    int flags;
#ifdef SIMDAX_TEST_X86
    unsigned mxcsr;
    uint16_t x87_cw;
#endif
    bool operator==(const FpState& o) const {
        return round == o.round && flags == o.flags
#ifdef SIMDAX_TEST_X86
               && mxcsr == o.mxcsr && x87_cw == o.x87_cw
#endif
            ;
    }
};

FpState fp_state() {
    FpState s;
    s.round = std::fegetround();
    s.flags = std::fetestexcept(FE_ALL_EXCEPT);
#ifdef SIMDAX_TEST_X86
    s.mxcsr = _mm_getcsr();
    uint16_t cw;
    __asm__ volatile("fnstcw %0" : "=m"(cw));
    s.x87_cw = cw;
#endif
    return s;
}

std::string show(const FpState& s) {
    char buf[160];
#ifdef SIMDAX_TEST_X86
    std::snprintf(buf, sizeof buf, "round %d flags 0x%x mxcsr 0x%04x x87cw 0x%04x", s.round,
                  s.flags, s.mxcsr, unsigned(s.x87_cw));
#else
    std::snprintf(buf, sizeof buf, "round %d flags 0x%x", s.round, s.flags);
#endif
    return buf;
}

// A caller's environment: rounding mode, sticky flags, and on x86
// FTZ/DAZ. Restores the default one when it goes out of scope.
struct CallerEnv {
    const char* name;
    int round;
    int raised;     // flags raised before the call
    bool ftz_daz;   // x86 only
};

const CallerEnv kEnvs[] = {
    {"default", FE_TONEAREST, 0, false},
    {"upward", FE_UPWARD, 0, false},
    {"downward", FE_DOWNWARD, 0, false},
    {"toward zero", FE_TOWARDZERO, 0, false},
    {"flags raised", FE_TONEAREST, FE_INEXACT | FE_OVERFLOW | FE_UNDERFLOW | FE_DIVBYZERO | FE_INVALID,
     false},
    {"ftz+daz", FE_TONEAREST, 0, true},
    {"ftz+daz upward, inexact raised", FE_UPWARD, FE_INEXACT, true},
};

class ScopedEnv {
public:
    explicit ScopedEnv(const CallerEnv& e) {
        std::fegetenv(&saved_);
#ifdef SIMDAX_TEST_X86
        saved_csr_ = _mm_getcsr();
#endif
        std::fesetround(e.round);
        std::feclearexcept(FE_ALL_EXCEPT);
        if (e.raised) std::feraiseexcept(e.raised);
#ifdef SIMDAX_TEST_X86
        if (e.ftz_daz) _mm_setcsr(_mm_getcsr() | 0x8040u);  // FTZ (bit 15) | DAZ (bit 6)
#endif
    }
    ~ScopedEnv() { restore(); }
    void restore() {
        std::fesetenv(&saved_);
#ifdef SIMDAX_TEST_X86
        _mm_setcsr(saved_csr_);
#endif
    }

private:
    std::fenv_t saved_;
#ifdef SIMDAX_TEST_X86
    unsigned saved_csr_ = 0;
#endif
};

// Runs spec under the caller environments: the state after each call
// (create, execute, execute_parallel through a pool, destroy, a failing
// create) equals the state before; then, back in the default environment,
// the output is checked against the reference.
// The state compared is the control state (rounding mode, FTZ/DAZ, masks,
// x87 control word) and the sticky exception flags; results must be within
// docs/spec.md under every rounding mode.
void check_env_preserved(const OpSpec& spec, simdax_dtype dt, const std::vector<int64_t>& sizes,
                         const std::function<double(int64_t)>& gen, simdax_threadpool* pool) {
    for (const CallerEnv& e : kEnvs) {
#ifndef SIMDAX_TEST_X86
        if (e.ftz_daz) continue;
#endif
        SCOPED_TRACE(std::string("caller environment: ") + e.name);
        Operands io{TensorBuffer(dt, sizes, {}, Role::Input), nullptr, nullptr,
                    TensorBuffer(dt, sizes, {}, Role::Output)};
        io.x.fill(gen);
        DescStorage st;
        const simdax_operator_desc* d = build_desc(spec, io, &st);
        std::vector<std::string> changed;
        simdax_status s1, s2, s3;
        {
            ScopedEnv env(e);
            FpState before = fp_state();
            auto after = [&](const char* call) {
                const FpState now = fp_state();
                if (!(now == before))
                    changed.push_back(std::string(call) + ": " + show(before) + " -> " + show(now));
                before = fp_state();
            };
            simdax_operator* op = nullptr;
            s1 = simdax_operator_create(d, &op);
            after("create");
            const simdax_bindings b{io.x.data(), nullptr, nullptr, io.y.data()};
            s2 = simdax_operator_execute(op, &b);
            after("execute");
            const simdax_parallel par = simdax_threadpool_parallel(pool);
            s3 = simdax_operator_execute_parallel(op, &b, &par);
            after("execute_parallel");
            simdax_operator_destroy(op);
            after("destroy");
            simdax_operator* bad = nullptr;
            simdax_operator_create(nullptr, &bad);
            after("failing create");
            env.restore();
        }
        EXPECT_TRUE(changed.empty()) << ::testing::PrintToString(changed);
        ASSERT_EQ(s1, SIMDAX_OK);
        ASSERT_EQ(s2, SIMDAX_OK);
        ASSERT_EQ(s3, SIMDAX_OK);
        const CheckResult r = check_output(spec, io);
        EXPECT_TRUE(r.ok) << r.report;
    }
}

class NumericHostilityFpEnv : public ::testing::TestWithParam<simdax_dtype> {};

// Values that make the kernels raise every flag they can: inexact results,
// exp underflow to subnormal/zero, exp(+inf - ...) and inf - inf (NaN
// groups), subnormal inputs.
double env_value(simdax_dtype dt, int64_t i) {
    switch (i % 9) {
        case 0: return -kInf;
        case 1: return min_subnormal(dt) * 3;
        case 2: return -200.0 + double(i % 17);
        case 3: return 1.0 / 3.0 + double(i % 5);
        default: return double(i % 23) * 0.37 - 4.0;
    }
}

void run_env_checks(simdax_dtype dt) {
    simdax_threadpool* pool = nullptr;
    ASSERT_EQ(simdax_threadpool_create(3, &pool), SIMDAX_OK);
    const auto gen = [dt](int64_t i) { return env_value(dt, i); };
    for (const OpSpec& spec : all_ops({1})) {
        SCOPED_TRACE(name_of(spec));
        check_env_preserved(spec, dt, {6, 50}, gen, pool);      // rows / contiguous
        if (!spec.axes.empty()) {
            OpSpec cols = spec;
            cols.axes = {0};
            check_env_preserved(cols, dt, {50, 6}, gen, pool);  // cols
        }
    }
    // Big enough for execute_parallel to use the pool's threads.
    check_env_preserved(op_spec(SIMDAX_OPERATOR_SOFTMAX, {1}), dt, {2, 70000}, gen, pool);
    simdax_threadpool_destroy(pool);
}

// Execute runs in its own floating-point environment (dispatch/fp_env.hpp):
// without it the SIMD exp loses accuracy under a caller's directed rounding
// and the caller's sticky flags pick up what the kernels raise.
TEST_P(NumericHostilityFpEnv, CallerStateUnchangedAndResultsWithinSpecUnderEveryRounding) {
    run_env_checks(GetParam());
}

INSTANTIATE_TEST_SUITE_P(AllDtypes, NumericHostilityFpEnv, ::testing::ValuesIn(kDtypes),
                         dtype_param_name);

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
    EXPECT_NE(std::string(simdax_last_error()).find("input.strides"), std::string::npos) << simdax_last_error();
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
    const uint32_t axes[1] = {0};
    const simdax_axes_op_desc d{&x, &y, 1, axes};
    const simdax_operator_desc od{SIMDAX_OPERATOR_SOFTMAX, &d};
    simdax_operator* op = nullptr;
    EXPECT_EQ(simdax_operator_create(&od, &op), SIMDAX_ERROR_OVERFLOW);
    EXPECT_EQ(op, nullptr);
    const int64_t ok[1] = {std::numeric_limits<int64_t>::max() / 4 - 1};
    const simdax_tensor_desc x2{SIMDAX_DTYPE_FLOAT32, 1, sizes, ok};
    const simdax_axes_op_desc d2{&x2, &y, 1, axes};
    const simdax_operator_desc od2{SIMDAX_OPERATOR_SOFTMAX, &d2};
    ASSERT_EQ(simdax_operator_create(&od2, &op), SIMDAX_OK) << simdax_last_error();
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

#ifdef SIMDAX_TEST_X86
// FTZ/DAZ set by the caller, outputs that land in the subnormal range:
// results stay within docs/spec.md (the flushed values are below every absolute
// tolerance), and serial and pooled execution agree bit for bit.
// Without the kernels' own environment the caller's FTZ/DAZ would apply to
// the calling thread's share of the work only (pool workers keep their own
// MXCSR): outputs in the subnormal range flushed in some rows only.
TEST(NumericHostilityFtz, SerialAndPooledAgreeUnderCallerFtzDaz) {
    simdax_threadpool* pool = nullptr;
    ASSERT_EQ(simdax_threadpool_create(3, &pool), SIMDAX_OK);
    for (const simdax_dtype dt : kDtypes) {
        SCOPED_TRACE(dtype_name(dt));
        const std::vector<int64_t> sizes{64, 1000};
        Operands io{TensorBuffer(dt, sizes, {}, Role::Input), nullptr, nullptr,
                    TensorBuffer(dt, sizes, {}, Role::Output)};
        // One 0 per group, the rest -d: outputs exp(-d) / (1 + ...) land in
        // the dtype's subnormal range (float: 3.7e-44, half: 6.1e-6,
        // double: 1.9e-313).
        const double d = dt == SIMDAX_DTYPE_FLOAT16 ? 12.0 : dt == SIMDAX_DTYPE_FLOAT64 ? 720.0 : 100.0;
        io.x.fill([d](int64_t i) { return i % 1000 == 0 ? 0.0 : -d - double(i % 3); });
        const OpSpec spec = op_spec(SIMDAX_OPERATOR_SOFTMAX, {1});
        DescStorage st;
        simdax_operator* op = nullptr;
        ASSERT_EQ(simdax_operator_create(build_desc(spec, io, &st), &op), SIMDAX_OK);
        TensorBuffer y2(dt, sizes, {}, Role::Output);
        {
            ScopedEnv env(kEnvs[5]);  // ftz+daz
            const simdax_bindings b{io.x.data(), nullptr, nullptr, io.y.data()};
            EXPECT_EQ(simdax_operator_execute(op, &b), SIMDAX_OK);
            const simdax_bindings b2{io.x.data(), nullptr, nullptr, y2.data()};
            const simdax_parallel par = simdax_threadpool_parallel(pool);
            EXPECT_EQ(simdax_operator_execute_parallel(op, &b2, &par), SIMDAX_OK);
        }
        simdax_operator_destroy(op);
        const std::vector<double> a = io.y.read(), b = y2.read();
        size_t differ = 0;
        for (size_t i = 0; i < a.size(); ++i) differ += std::memcmp(&a[i], &b[i], sizeof(double)) != 0;
        EXPECT_EQ(differ, 0u) << "serial (caller's FTZ/DAZ) and pooled (workers' own MXCSR) differ";
        const CheckResult r = check_output(spec, io);
        EXPECT_TRUE(r.ok) << r.report;
    }
    simdax_threadpool_destroy(pool);
}
#endif

}  // namespace
