// Special values (docs/spec.md "Special values"): NaN, infinities, huge finite
// values, ties, signed zeros, constant groups, large-mean MVN, overflow of
// the output type, zero-size tensors. Every run is also checked against the
// float64 reference; the explicit expectations are derived by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "simdax/simdax.h"
#include "support/dtype.hpp"
#include "support/op_runner.hpp"
#include "support/random_case.hpp"
#include "support/reference.hpp"

namespace {

using namespace sxt;
const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const std::vector<simdax_dtype> kDtypes{SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_FLOAT16, SIMDAX_DTYPE_BFLOAT16,
                                        SIMDAX_DTYPE_FLOAT64};

OpSpec spec_of(simdax_operator_type op, std::vector<uint32_t> axes = {}) {
    OpSpec s;
    s.op = op;
    s.axes = std::move(axes);
    return s;
}

// Runs `spec` on packed values (output with a gap between elements, so
// stray writes show); checks the reference and canaries; returns the output.
std::vector<double> run(const OpSpec& spec, simdax_dtype dt, const std::vector<int64_t>& sizes,
                        const std::vector<double>& x, const std::vector<int64_t>& out_strides = {}) {
    Operands io{TensorBuffer(dt, sizes, {}, Role::Input, 2, 2), nullptr, nullptr,
                TensorBuffer(dt, sizes, out_strides, Role::Output, 2, 2)};
    io.x.set(x);
    const CheckResult r = run_and_check(spec, io);
    EXPECT_TRUE(r.ok) << r.report;
    return io.y.read();
}

// Values of a [rows, n] matrix reduced along n, run twice: as rows
// (sizes [rows, n], axes {1}) and as columns (the transpose packed,
// sizes [n, rows], axes {0}); both results in [rows, n] order.
std::vector<std::vector<double>> run_rows_and_columns(simdax_operator_type op, simdax_dtype dt, int64_t rows,
                                                      int64_t n, const std::vector<double>& x) {
    std::vector<std::vector<double>> out;
    out.push_back(run(spec_of(op, {1}), dt, {rows, n}, x));
    std::vector<double> xt(x.size());
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t j = 0; j < n; ++j) xt[size_t(j * rows + r)] = x[size_t(r * n + j)];
    const std::vector<double> yt = run(spec_of(op, {0}), dt, {n, rows}, xt);
    std::vector<double> y(x.size());
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t j = 0; j < n; ++j) y[size_t(r * n + j)] = yt[size_t(j * rows + r)];
    out.push_back(y);
    return out;
}

class SpecialValues : public testing::TestWithParam<simdax_dtype> {};

// A NaN anywhere in a group makes the whole group NaN (not its neighbours).
TEST_P(SpecialValues, NanPoisonsWholeGroup) {
    const simdax_dtype dt = GetParam();
    for (simdax_operator_type op :
         {SIMDAX_OPERATOR_LOG_SOFTMAX, SIMDAX_OPERATOR_SOFTMAX, SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION})
        for (int64_t n : {1, 5, 37, 100})
            for (int64_t pos : {int64_t(0), n / 2, n - 1}) {
                const int64_t rows = 3;
                std::vector<double> x(size_t(rows * n));
                for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(double(i)) * 3;
                x[size_t(n + pos)] = kNaN;  // row 1
                for (const auto& y : run_rows_and_columns(op, dt, rows, n, x))
                    for (int64_t r = 0; r < rows; ++r)
                        for (int64_t j = 0; j < n; ++j)
                            EXPECT_EQ(std::isnan(y[size_t(r * n + j)]), r == 1)
                                << op_name(op) << " n " << n << " NaN at " << pos << " element " << r << ","
                                << j;
            }
}

// Hardmax: NaN beats everything (also +inf); the first NaN wins.
TEST_P(SpecialValues, HardmaxFirstNanWins) {
    const simdax_dtype dt = GetParam();
    for (int64_t n : {2, 9, 40, 100}) {
        std::vector<double> x(size_t(2 * n), 1.0);
        const int64_t a = n / 3, b = n - 1;
        x[size_t(a + 1 < n ? a + 1 : a)] = kInf;
        x[size_t(b)] = kNaN;
        x[size_t(a)] = kNaN;  // row 0: first NaN at a, later NaN at b, +inf between
        x[size_t(n)] = kInf;  // row 1: no NaN, +inf first
        for (const auto& y : run_rows_and_columns(SIMDAX_OPERATOR_HARDMAX, dt, 2, n, x))
            for (int64_t j = 0; j < n; ++j) {
                EXPECT_EQ(y[size_t(j)], j == a ? 1.0 : 0.0) << "n " << n << " j " << j;
                EXPECT_EQ(y[size_t(n + j)], j == 0 ? 1.0 : 0.0) << "n " << n << " j " << j;
            }
    }
}

// +inf in a LogSoftmax/Softmax group: inf - inf enters the sum, NaN throughout.
// MVN (normalising): the variance is NaN, so is the whole group.
TEST_P(SpecialValues, PlusInfMakesGroupNan) {
    const simdax_dtype dt = GetParam();
    for (simdax_operator_type op :
         {SIMDAX_OPERATOR_LOG_SOFTMAX, SIMDAX_OPERATOR_SOFTMAX, SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION})
        for (int64_t n : {3, 33}) {
            std::vector<double> x(size_t(2 * n), 0.5);
            x[size_t(n / 2)] = kInf;  // row 0 only
            x[size_t(n + 1)] = 2.0;
            for (const auto& y : run_rows_and_columns(op, dt, 2, n, x))
                for (int64_t j = 0; j < n; ++j) {
                    EXPECT_TRUE(std::isnan(y[size_t(j)])) << op_name(op) << " n " << n << " j " << j;
                    EXPECT_FALSE(std::isnan(y[size_t(n + j)])) << op_name(op) << " n " << n << " j " << j;
                }
        }
}

// A group of only -inf: LogSoftmax/Softmax NaN, Hardmax 1 at the first.
TEST_P(SpecialValues, AllMinusInfGroup) {
    const simdax_dtype dt = GetParam();
    for (int64_t n : {1, 5, 40}) {
        std::vector<double> x(size_t(2 * n), -kInf);
        for (int64_t j = 0; j < n; ++j) x[size_t(n + j)] = double(j % 3);  // row 1 finite
        for (simdax_operator_type op : {SIMDAX_OPERATOR_LOG_SOFTMAX, SIMDAX_OPERATOR_SOFTMAX})
            for (const auto& y : run_rows_and_columns(op, dt, 2, n, x))
                for (int64_t j = 0; j < n; ++j) {
                    EXPECT_TRUE(std::isnan(y[size_t(j)])) << op_name(op) << " n " << n;
                    EXPECT_TRUE(std::isfinite(y[size_t(n + j)])) << op_name(op) << " n " << n;
                }
        for (const auto& y : run_rows_and_columns(SIMDAX_OPERATOR_HARDMAX, dt, 2, n, x))
            for (int64_t j = 0; j < n; ++j) EXPECT_EQ(y[size_t(j)], j == 0 ? 1.0 : 0.0) << "n " << n;
    }
}

// -inf beside a finite maximum: -inf (LogSoftmax) / 0 (Softmax) there, and
// the rest equals the group without the -inf elements.
TEST_P(SpecialValues, MinusInfBesideFiniteMax) {
    const simdax_dtype dt = GetParam();
    const Tolerance tol_ls = tolerance_for(SIMDAX_OPERATOR_LOG_SOFTMAX, dt);
    const Tolerance tol_sm = tolerance_for(SIMDAX_OPERATOR_SOFTMAX, dt);
    for (int64_t n : {4, 19, 70}) {
        std::vector<double> x(static_cast<size_t>(n)), finite;
        for (int64_t j = 0; j < n; ++j) {
            x[size_t(j)] = j % 3 == 1 ? -kInf : round_to_dtype(std::cos(double(j)) * 2, dt);
            if (j % 3 != 1) finite.push_back(x[size_t(j)]);
        }
        double m = -kInf, s = 0;
        for (double v : finite) m = std::max(m, v);
        for (double v : finite) s += std::exp(v - m);
        for (const auto& y : run_rows_and_columns(SIMDAX_OPERATOR_LOG_SOFTMAX, dt, 1, n, x))
            for (int64_t j = 0; j < n; ++j) {
                if (j % 3 == 1)
                    EXPECT_EQ(y[size_t(j)], -kInf);
                else
                    EXPECT_TRUE(passes(x[size_t(j)] - m - std::log(s), y[size_t(j)], dt, tol_ls)) << j;
            }
        for (const auto& y : run_rows_and_columns(SIMDAX_OPERATOR_SOFTMAX, dt, 1, n, x))
            for (int64_t j = 0; j < n; ++j) {
                if (j % 3 == 1)
                    EXPECT_EQ(y[size_t(j)], 0.0);
                else
                    EXPECT_TRUE(passes(std::exp(x[size_t(j)] - m) / s, y[size_t(j)], dt, tol_sm)) << j;
            }
    }
}

// Ties go to the first; -0.0 and +0.0 tie.
TEST_P(SpecialValues, HardmaxTiesAndSignedZeros) {
    const simdax_dtype dt = GetParam();
    EXPECT_EQ(run(spec_of(SIMDAX_OPERATOR_HARDMAX, {1}), dt, {1, 2}, {-0.0, 0.0}),
              (std::vector<double>{1, 0}));
    EXPECT_EQ(run(spec_of(SIMDAX_OPERATOR_HARDMAX, {1}), dt, {1, 2}, {0.0, -0.0}),
              (std::vector<double>{1, 0}));
    EXPECT_EQ(run(spec_of(SIMDAX_OPERATOR_HARDMAX, {1}), dt, {1, 4}, {-1, -0.0, 0.0, -0.0}),
              (std::vector<double>{0, 1, 0, 0}));
    for (int64_t n : {7, 40, 100})
        for (int64_t first : {int64_t(1), n / 2, n - 2}) {
            std::vector<double> x(size_t(2 * n), -1.0);
            x[size_t(first)] = -0.0;  // row 0: -0 first, +0 later
            x[size_t(n - 1)] = 0.0;
            x[size_t(n + first)] = 0.0;  // row 1: +0 first, -0 later
            x[size_t(2 * n - 1)] = -0.0;
            for (const auto& y : run_rows_and_columns(SIMDAX_OPERATOR_HARDMAX, dt, 2, n, x))
                for (int64_t j = 0; j < n; ++j) {
                    EXPECT_EQ(y[size_t(j)], j == first ? 1.0 : 0.0) << "n " << n << " first " << first;
                    EXPECT_EQ(y[size_t(n + j)], j == first ? 1.0 : 0.0) << "n " << n << " first " << first;
                }
        }
    // All equal: the first wins.
    for (const auto& y :
         run_rows_and_columns(SIMDAX_OPERATOR_HARDMAX, dt, 1, 33, std::vector<double>(33, 3.0)))
        for (int j = 0; j < 33; ++j) EXPECT_EQ(y[size_t(j)], j == 0 ? 1.0 : 0.0);
}

// Constant groups: Softmax 1/n, LogSoftmax -ln n, MVN 0 (+ bias).
TEST_P(SpecialValues, ConstantGroups) {
    const simdax_dtype dt = GetParam();
    for (int64_t n : {1, 7, 33, 1000})
        for (double c : {0.1, -3.0, 1e4}) {
            const std::vector<double> x(size_t(n), c);
            const Tolerance ts = tolerance_for(SIMDAX_OPERATOR_SOFTMAX, dt);
            const Tolerance tl = tolerance_for(SIMDAX_OPERATOR_LOG_SOFTMAX, dt);
            const Tolerance tm = tolerance_for(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, dt);
            for (const auto& y : run_rows_and_columns(SIMDAX_OPERATOR_SOFTMAX, dt, 1, n, x))
                for (double v : y)
                    EXPECT_TRUE(passes(1.0 / double(n), v, dt, ts)) << n << " " << c << " got " << v;
            for (const auto& y : run_rows_and_columns(SIMDAX_OPERATOR_LOG_SOFTMAX, dt, 1, n, x))
                for (double v : y)
                    EXPECT_TRUE(passes(-std::log(double(n)), v, dt, tl)) << n << " " << c << " got " << v;
            for (const auto& y :
                 run_rows_and_columns(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, dt, 1, n, x))
                for (double v : y) EXPECT_TRUE(passes(0.0, v, dt, tm)) << n << " " << c << " got " << v;
        }
}

// +-3e38 must not overflow in float32 (and the bfloat16 range, same exponent).
TEST_P(SpecialValues, HugeMagnitudes) {
    const simdax_dtype dt = GetParam();
    const double big = dt == SIMDAX_DTYPE_FLOAT16 ? 65504.0 : 3e38;
    const double bigd = round_to_dtype(big, dt);
    const std::vector<double> x{bigd, -bigd, bigd, 1.0};
    const double ln2 = std::log(2.0);
    const Tolerance tl = tolerance_for(SIMDAX_OPERATOR_LOG_SOFTMAX, dt);
    for (const auto& y : run_rows_and_columns(SIMDAX_OPERATOR_LOG_SOFTMAX, dt, 1, 4, x)) {
        EXPECT_TRUE(passes(-ln2, y[0], dt, tl)) << y[0];
        // -big - big is finite in float64 but beyond every narrower type.
        if (dt == SIMDAX_DTYPE_FLOAT64)
            EXPECT_TRUE(passes(-2 * bigd - ln2, y[1], dt, tl)) << y[1];
        else
            EXPECT_EQ(y[1], -kInf);
        EXPECT_TRUE(passes(-ln2, y[2], dt, tl)) << y[2];
    }
    for (const auto& y : run_rows_and_columns(SIMDAX_OPERATOR_SOFTMAX, dt, 1, 4, x)) {
        EXPECT_TRUE(passes(0.5, y[0], dt, tolerance_for(SIMDAX_OPERATOR_SOFTMAX, dt))) << y[0];
        EXPECT_EQ(y[1], 0.0);
        EXPECT_EQ(y[3], 0.0);
    }
    for (const auto& y : run_rows_and_columns(SIMDAX_OPERATOR_HARDMAX, dt, 1, 4, x))
        EXPECT_EQ(y, (std::vector<double>{1, 0, 0, 0}));
    const std::vector<double> h = run(spec_of(SIMDAX_OPERATOR_HARD_SIGMOID), dt, {4}, x);
    EXPECT_EQ(h[0], 1.0);
    EXPECT_EQ(h[1], 0.0);
    EXPECT_EQ(h[2], 1.0);
    EXPECT_TRUE(
        passes(ref_hard_sigmoid(1.0, 0.2f, 0.5f), h[3], dt, tolerance_for(SIMDAX_OPERATOR_HARD_SIGMOID, dt)))
        << h[3];
}

// MVN of values near +-max: var is ~max^2, far beyond the type; the result
// is still about +-1 (docs/spec.md: large finite magnitudes must not overflow, and
// the bound is against the float64 evaluation).
TEST_P(SpecialValues, MvnHugeMagnitudes) {
    const simdax_dtype dt = GetParam();
    const Tolerance tm = tolerance_for(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, dt);
    const std::vector<double> mags = dt == SIMDAX_DTYPE_FLOAT16 ? std::vector<double>{300, 30000, 60000}
                                                                : std::vector<double>{1e19, 1e30, 3e38};
    for (double mag : mags) {  // squares overflow the type from the first one on
        const double big = round_to_dtype(mag, dt);
        for (const auto& y : run_rows_and_columns(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, dt, 1, 4,
                                                  {big, -big, big, -big}))
            for (int j = 0; j < 4; ++j)
                EXPECT_TRUE(passes(j % 2 ? -1.0 : 1.0, y[size_t(j)], dt, tm))
                    << "|x| " << big << " got " << y[size_t(j)];
    }
}

// A result finite in float64 but beyond the output type is that type's
// infinity of the same sign.
TEST_P(SpecialValues, OutOfRangeResultsAreInfinite) {
    const simdax_dtype dt = GetParam();
    if (dt == SIMDAX_DTYPE_FLOAT64) return;  // nothing finite in float64 exceeds float64
    const double big = dt == SIMDAX_DTYPE_FLOAT16 ? 40000.0 : 3e38;
    OpSpec lin = spec_of(SIMDAX_OPERATOR_ACTIVATION);
    lin.activation = {SIMDAX_ACTIVATION_LINEAR, 2.f, 0.f, 0.f};
    const std::vector<double> y = run(lin, dt, {3}, {big, -big, 1.0});
    EXPECT_EQ(y[0], kInf);
    EXPECT_EQ(y[1], -kInf);
    EXPECT_EQ(y[2], 2.0);
}

// float16 MVN with Scale/Bias pushing the result past 65504.
TEST(SpecialValuesF16, MvnScaleBiasOverflowToInf) {
    const simdax_dtype dt = SIMDAX_DTYPE_FLOAT16;
    for (double sign : {1.0, -1.0}) {
        OpSpec spec = spec_of(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, {1});
        Operands io{TensorBuffer(dt, {1, 3}, {}, Role::Input),
                    std::make_unique<TensorBuffer>(dt, std::vector<int64_t>{1, 1}, std::vector<int64_t>{},
                                                   Role::Input),
                    std::make_unique<TensorBuffer>(dt, std::vector<int64_t>{1, 1}, std::vector<int64_t>{},
                                                   Role::Input),
                    TensorBuffer(dt, {1, 3}, {}, Role::Output)};
        io.x.set({0, 0, 1});
        io.scale->set({sign * 32768});
        io.bias->set({sign * 32768});
        const CheckResult r = run_and_check(spec, io);
        EXPECT_TRUE(r.ok) << r.report;
        // x=1: (2/3)/sqrt(2/9 + 1e-5) = 1.41418 -> 1.41418*32768 + 32768 = 79109.
        const std::vector<double> y = io.y.read();
        EXPECT_EQ(y[2], sign * kInf);
        EXPECT_NEAR(y[0], sign * 9598.3, 8.0);
    }
}

// MVN with mean 1e4 and std 1 in float32 is as accurate as with mean 0.
TEST(SpecialValuesF32, MvnLargeMeanNoCancellation) {
    Rng rng(test_seed(77));
    for (int64_t n : {16, 1000, 4097})
        for (bool normalize : {true, false})
            for (double mean : {0.0, 1e4}) {
                std::vector<double> x(size_t(2 * n));
                for (auto& v : x) v = mean + (rng.uniform(-1, 1) + rng.uniform(-1, 1) + rng.uniform(-1, 1));
                OpSpec spec = spec_of(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, {1});
                spec.normalize_variance = normalize;
                run(spec, SIMDAX_DTYPE_FLOAT32, {2, n}, x);  // rows
                std::vector<double> xt(x.size());
                for (int64_t r = 0; r < 2; ++r)
                    for (int64_t j = 0; j < n; ++j) xt[size_t(j * 2 + r)] = x[size_t(r * n + j)];
                spec.axes = {0};
                run(spec, SIMDAX_DTYPE_FLOAT32, {n, 2}, xt);  // columns
                spec.axes = {0, 1};                           // the whole tensor as one group
                run(spec, SIMDAX_DTYPE_FLOAT32, {2, n}, x);
            }
}

// Zero-size tensors: accepted, nothing written.
TEST_P(SpecialValues, ZeroSizeTensorsWriteNothing) {
    const simdax_dtype dt = GetParam();
    const std::vector<std::vector<int64_t>> shapes{{0}, {3, 0, 4}, {0, 5}, {2, 3, 0}};
    for (simdax_operator_type op : {SIMDAX_OPERATOR_LOG_SOFTMAX, SIMDAX_OPERATOR_SOFTMAX,
                                    SIMDAX_OPERATOR_HARDMAX, SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION,
                                    SIMDAX_OPERATOR_HARD_SIGMOID, SIMDAX_OPERATOR_ACTIVATION})
        for (const auto& sizes : shapes)
            for (uint32_t axis = 0; axis < sizes.size(); ++axis) {
                OpSpec spec = spec_of(op);
                if (op != SIMDAX_OPERATOR_HARD_SIGMOID && op != SIMDAX_OPERATOR_ACTIVATION)
                    spec.axes = {axis};
                spec.activation = {SIMDAX_ACTIVATION_SIGMOID, 0.f, 0.f, 0.f};
                Operands io{TensorBuffer(dt, sizes, {}, Role::Input, 4, 4), nullptr, nullptr,
                            TensorBuffer(dt, sizes, {}, Role::Output, 4, 4)};
                if (op == SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION) {
                    std::vector<int64_t> s(sizes.size(), 1);
                    io.scale = std::make_unique<TensorBuffer>(dt, s, std::vector<int64_t>{}, Role::Input);
                    io.scale->set({2.0});
                }
                std::string err;
                EXPECT_EQ(execute(spec, io, false, &err), SIMDAX_OK) << op_name(op) << " " << err;
                EXPECT_EQ(io.y.touched_gaps(), 0) << op_name(op) << " wrote into a zero-size output";
                EXPECT_EQ(execute(spec, io, true, &err), SIMDAX_OK) << op_name(op) << " one-shot " << err;
                EXPECT_EQ(io.y.touched_gaps(), 0) << op_name(op) << " one-shot wrote into a zero-size output";
            }
}

// HardSigmoid: NaN stays NaN; infinities clamp by the sign of alpha.
TEST_P(SpecialValues, HardSigmoidNanInf) {
    const simdax_dtype dt = GetParam();
    const std::vector<double> x{kNaN, kInf, -kInf, 0.0, kNaN};
    OpSpec hs = spec_of(SIMDAX_OPERATOR_HARD_SIGMOID);
    std::vector<double> y = run(hs, dt, {5}, x);
    EXPECT_TRUE(std::isnan(y[0]));
    EXPECT_EQ(y[1], 1.0);
    EXPECT_EQ(y[2], 0.0);
    EXPECT_EQ(y[3], 0.5);
    EXPECT_TRUE(std::isnan(y[4]));
    hs.alpha = -0.5f;
    hs.beta = 0.25f;
    y = run(hs, dt, {5}, x, {2});
    EXPECT_TRUE(std::isnan(y[0]));
    EXPECT_EQ(y[1], 0.0);
    EXPECT_EQ(y[2], 1.0);
    EXPECT_EQ(y[3], 0.25);
    // NaN inside a long vector-sized run too.
    std::vector<double> lx(67, 1.0);
    lx[33] = kNaN;
    lx[66] = kNaN;
    y = run(spec_of(SIMDAX_OPERATOR_HARD_SIGMOID), dt, {67}, lx);
    for (int i = 0; i < 67; ++i) EXPECT_EQ(std::isnan(y[size_t(i)]), i == 33 || i == 66) << i;
}

// Every activation: NaN in gives NaN out (even where x > alpha ? x : 0 would
// turn it into 0); infinities where the formula has a clear value.
TEST_P(SpecialValues, ActivationsNanAndInf) {
    const simdax_dtype dt = GetParam();
    for (int t = 0; t < SIMDAX_ACTIVATION_COUNT; ++t) {
        OpSpec spec = spec_of(SIMDAX_OPERATOR_ACTIVATION);
        spec.activation = spec_default_activation(simdax_activation_type(t));
        if (t == SIMDAX_ACTIVATION_LINEAR) spec.activation.alpha = 1.5f;
        std::vector<double> x(35, 0.75);
        x[0] = kNaN;
        x[17] = kNaN;
        x[34] = kNaN;
        const std::vector<double> y = run(spec, dt, {35}, x);
        for (int i = 0; i < 35; ++i)
            EXPECT_EQ(std::isnan(y[size_t(i)]), i % 17 == 0)
                << spec_activation_name(simdax_activation_type(t)) << " " << i;
        // Softsign and gelu have inf/inf and inf*0 in their literal formulas.
        if (t == SIMDAX_ACTIVATION_SOFTSIGN || t == SIMDAX_ACTIVATION_GELU) continue;
        const std::vector<double> yi = run(spec, dt, {3}, {kInf, -kInf, 0.0});
        EXPECT_TRUE(passes(ref_activation(kInf, spec.activation), yi[0], dt,
                           tolerance_for(SIMDAX_OPERATOR_ACTIVATION, dt)))
            << spec_activation_name(simdax_activation_type(t)) << " +inf -> " << yi[0];
        EXPECT_TRUE(passes(ref_activation(-kInf, spec.activation), yi[1], dt,
                           tolerance_for(SIMDAX_OPERATOR_ACTIVATION, dt)))
            << spec_activation_name(simdax_activation_type(t)) << " -inf -> " << yi[1];
    }
}

INSTANTIATE_TEST_SUITE_P(AllDtypes, SpecialValues, testing::ValuesIn(kDtypes),
                         [](const testing::TestParamInfo<simdax_dtype>& i) {
                             return std::string(dtype_name(i.param));
                         });

}  // namespace
