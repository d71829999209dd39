// Checks the test-side float64 reference and number formats against
// hand-derived values, so a mistake there cannot silently pass (or fail)
// the library. No library kernels run here.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "support/dtype.hpp"
#include "support/random_case.hpp"
#include "support/reference.hpp"

namespace {

using namespace sxt;
const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(ReferenceSelfTest, Float16Encoding) {
    EXPECT_EQ(f64_to_f16_bits(1.0), 0x3C00);
    EXPECT_EQ(f64_to_f16_bits(-2.0), 0xC000);
    EXPECT_EQ(f64_to_f16_bits(0.1), 0x2E66);
    EXPECT_EQ(f64_to_f16_bits(65504.0), 0x7BFF);
    EXPECT_EQ(f64_to_f16_bits(65519.99), 0x7BFF);
    EXPECT_EQ(f64_to_f16_bits(65520.0), 0x7C00);  // tie at the top rounds to inf
    EXPECT_EQ(f64_to_f16_bits(-1e6), 0xFC00);
    EXPECT_EQ(f64_to_f16_bits(std::ldexp(1.0, -24)), 0x0001);
    EXPECT_EQ(f64_to_f16_bits(std::ldexp(1.0, -25)), 0x0000);        // tie to even: 0
    EXPECT_EQ(f64_to_f16_bits(3 * std::ldexp(1.0, -25)), 0x0002);    // tie to even: 2
    EXPECT_EQ(f64_to_f16_bits(1.0 + std::ldexp(1.0, -11)), 0x3C00);  // tie to even
    EXPECT_EQ(f64_to_f16_bits(1.0 + 3 * std::ldexp(1.0, -11)), 0x3C02);
    EXPECT_EQ(f64_to_f16_bits(-0.0), 0x8000);
    EXPECT_EQ(f64_to_f16_bits(std::ldexp(1.0, -14)), 0x0400);  // smallest normal
    EXPECT_EQ(f64_to_f16_bits(std::ldexp(1023.0, -24)), 0x03FF);
    EXPECT_TRUE(std::isnan(f16_bits_to_f64(f64_to_f16_bits(kNaN))));
    EXPECT_EQ(f16_bits_to_f64(0x7BFF), 65504.0);
    EXPECT_EQ(f16_bits_to_f64(0x0001), std::ldexp(1.0, -24));
    EXPECT_EQ(f16_bits_to_f64(0xFC00), -kInf);
    EXPECT_EQ(f16_bits_to_f64(0x3555), 0.333251953125);
}

TEST(ReferenceSelfTest, BFloat16Encoding) {
    EXPECT_EQ(f64_to_bf16_bits(1.0), 0x3F80);
    EXPECT_EQ(f64_to_bf16_bits(1.0 + std::ldexp(1.0, -8)), 0x3F80);  // tie to even
    EXPECT_EQ(f64_to_bf16_bits(1.0 + 3 * std::ldexp(1.0, -8)), 0x3F82);
    EXPECT_EQ(f64_to_bf16_bits(-3.0), 0xC040);
    EXPECT_EQ(f64_to_bf16_bits(3.4e38), 0x7F80);  // past the last midpoint: inf
    EXPECT_EQ(f64_to_bf16_bits(3.38e38), 0x7F7E);
    EXPECT_EQ(bf16_bits_to_f64(0x7F7F), std::ldexp(255.0, 120));
    EXPECT_TRUE(std::isnan(bf16_bits_to_f64(f64_to_bf16_bits(kNaN))));
}

TEST(ReferenceSelfTest, Float32RoundingMatchesHardwareCast) {
    // For in-range values the hardware conversion is correctly rounded, so
    // it checks the generic rounding routine.
    Rng rng(7);
    for (int i = 0; i < 20000; ++i) {
        const double x = std::ldexp(rng.uniform(-1, 1), int(rng.range(-140, 127)));
        ASSERT_EQ(double(static_cast<float>(x)), round_to_dtype(x, SIMDAX_DTYPE_FLOAT32)) << x;
    }
    EXPECT_EQ(round_to_dtype(3.5e38, SIMDAX_DTYPE_FLOAT32), kInf);
    EXPECT_EQ(round_to_dtype(-6e38, SIMDAX_DTYPE_FLOAT32), -kInf);
}

TEST(ReferenceSelfTest, UlpDistance) {
    EXPECT_EQ(ulp_distance(1.0, 1.0 + std::ldexp(1.0, -10), SIMDAX_DTYPE_FLOAT16), 1u);
    EXPECT_EQ(ulp_distance(-0.0, 0.0, SIMDAX_DTYPE_FLOAT16), 0u);
    EXPECT_EQ(ulp_distance(-std::ldexp(1.0, -24), std::ldexp(1.0, -24), SIMDAX_DTYPE_FLOAT16), 2u);
    EXPECT_EQ(ulp_distance(65504.0, 65472.0, SIMDAX_DTYPE_FLOAT16), 1u);
    EXPECT_EQ(ulp_distance(1.0, 1.0 - std::ldexp(1.0, -8), SIMDAX_DTYPE_BFLOAT16), 1u);
}

TEST(ReferenceSelfTest, PassRule) {
    const Tolerance f16 = tolerance_for(SIMDAX_OPERATOR_LOG_SOFTMAX, SIMDAX_DTYPE_FLOAT16);
    EXPECT_TRUE(passes(kNaN, kNaN, SIMDAX_DTYPE_FLOAT16, f16));
    EXPECT_FALSE(passes(kNaN, 0.0, SIMDAX_DTYPE_FLOAT16, f16));
    EXPECT_FALSE(passes(1.0, kNaN, SIMDAX_DTYPE_FLOAT16, f16));
    EXPECT_TRUE(passes(7e4, kInf, SIMDAX_DTYPE_FLOAT16, f16));  // rounds to inf
    EXPECT_FALSE(passes(7e4, 65504.0, SIMDAX_DTYPE_FLOAT16, f16));
    EXPECT_FALSE(passes(65504.0, kInf, SIMDAX_DTYPE_FLOAT16, f16));
    EXPECT_TRUE(passes(1.0, 1.0 + std::ldexp(1.0, -10), SIMDAX_DTYPE_FLOAT16, f16));  // 1 ulp
    EXPECT_FALSE(passes(1.0, 1.0 + std::ldexp(1.0, -9), SIMDAX_DTYPE_FLOAT16, f16));  // 2 ulps
    const Tolerance mvn2 =
        tolerance_for(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, SIMDAX_DTYPE_FLOAT16, true);
    EXPECT_TRUE(passes(1.0, 1.0 + std::ldexp(1.0, -9), SIMDAX_DTYPE_FLOAT16, mvn2));
    const Tolerance f32 = tolerance_for(SIMDAX_OPERATOR_SOFTMAX, SIMDAX_DTYPE_FLOAT32);
    EXPECT_TRUE(passes(0.5, 0.5 + 5e-6, SIMDAX_DTYPE_FLOAT32, f32));
    EXPECT_FALSE(passes(0.5, 0.5 + 7e-6, SIMDAX_DTYPE_FLOAT32, f32));
    EXPECT_TRUE(passes(0.0, -0.0, SIMDAX_DTYPE_FLOAT32,
                       tolerance_for(SIMDAX_OPERATOR_HARDMAX, SIMDAX_DTYPE_FLOAT32)));
    EXPECT_FALSE(passes(1.0, 1.0 - 1e-15, SIMDAX_DTYPE_FLOAT64,
                        tolerance_for(SIMDAX_OPERATOR_HARDMAX, SIMDAX_DTYPE_FLOAT64)));
    const Tolerance f64 = tolerance_for(SIMDAX_OPERATOR_LOG_SOFTMAX, SIMDAX_DTYPE_FLOAT64);
    EXPECT_TRUE(passes(10.0, 10.0 + 1e-11, SIMDAX_DTYPE_FLOAT64, f64));
    EXPECT_FALSE(passes(10.0, 10.0 + 1e-10, SIMDAX_DTYPE_FLOAT64, f64));
}

StridedView packed(const std::vector<double>& v, std::vector<int64_t> sizes) {
    StridedView s;
    s.base = v.data();
    s.strides = packed_strides(sizes);
    s.sizes = std::move(sizes);
    return s;
}

TEST(ReferenceSelfTest, HardmaxSpecExample) {
    const std::vector<double> x{12, 0, -101, 11, 3, 234, 0, -101};
    const StridedView v = packed(x, {2, 2, 2});
    EXPECT_EQ(ref_hardmax(v, {1}), (std::vector<double>{1, 0, 0, 1, 1, 1, 0, 0}));
    EXPECT_EQ(ref_hardmax(v, {0}), (std::vector<double>{1, 0, 0, 1, 0, 1, 1, 0}));
    EXPECT_EQ(ref_hardmax(v, {2, 0}), (std::vector<double>{0, 0, 0, 1, 0, 1, 0, 0}));
}

TEST(ReferenceSelfTest, HardmaxNanAndSignedZero) {
    const std::vector<double> x{1, kNaN, 5, kNaN, -0.0, 0.0, 0.0, -0.0};
    const StridedView v = packed(x, {2, 4});
    EXPECT_EQ(ref_hardmax(v, {1}), (std::vector<double>{0, 1, 0, 0, 1, 0, 0, 0}));
}

TEST(ReferenceSelfTest, SoftmaxFamilyByHand) {
    const std::vector<double> x{1, 2, 3, -kInf, 0, 0};
    const StridedView v = packed(x, {2, 3});
    const double l = std::log(std::exp(-2.0) + std::exp(-1.0) + 1.0);
    const std::vector<double> ls = ref_log_softmax(v, {1});
    EXPECT_DOUBLE_EQ(ls[0], -2 - l);
    EXPECT_DOUBLE_EQ(ls[2], -l);
    EXPECT_EQ(ls[3], -kInf);
    EXPECT_DOUBLE_EQ(ls[4], -std::log(2.0));
    const std::vector<double> sm = ref_softmax(v, {1});
    EXPECT_DOUBLE_EQ(sm[1], std::exp(-1.0) / std::exp(l));
    EXPECT_EQ(sm[3], 0.0);
    EXPECT_DOUBLE_EQ(sm[4], 0.5);
    // Columns: axis 0 groups {1,-inf}, {2,0}, {3,0}.
    const std::vector<double> cs = ref_softmax(v, {0});
    EXPECT_EQ(cs[0], 1.0);
    EXPECT_DOUBLE_EQ(cs[1], 1 / (1 + std::exp(-2.0)));
    // +inf and all -inf groups are NaN.
    const std::vector<double> y{kInf, 1, -kInf, -kInf};
    const std::vector<double> r = ref_log_softmax(packed(y, {2, 2}), {1});
    for (double e : r) EXPECT_TRUE(std::isnan(e));
}

TEST(ReferenceSelfTest, MvnByHand) {
    const std::vector<double> x{1, 2, 3, 4};
    MvnParams p;
    p.epsilon = 0.0;
    const std::vector<double> y = ref_mvn(packed(x, {4}), {0}, p);
    EXPECT_DOUBLE_EQ(y[0], -1.5 / std::sqrt(1.25));
    EXPECT_DOUBLE_EQ(y[3], 1.5 / std::sqrt(1.25));
    // Scale broadcast over rows, bias per element, no variance normalisation.
    const std::vector<double> x2{1, 3, 10, 20};
    const std::vector<double> sc{2, -1};
    const std::vector<double> bi{0.5, 0.25, 0, 1};
    const StridedView s = packed(sc, {2, 1}), b = packed(bi, {2, 2});
    p.scale = &s;
    p.bias = &b;
    p.normalize_variance = false;
    const std::vector<double> y2 = ref_mvn(packed(x2, {2, 2}), {1}, p);
    EXPECT_EQ(y2, (std::vector<double>{-2 + 0.5, 2 + 0.25, 5 + 0, -5 + 1}));
}

// docs/mvn_range.md by hand: the allowed pre-activation interval
// [v - D, v + D] and the activation's range over it.
TEST(ReferenceSelfTest, MvnRangeRuleByHand) {
    const Tolerance f64 = tolerance_for(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, SIMDAX_DTYPE_FLOAT64);
    MvnParams p;
    p.epsilon = 0.0;
    std::vector<RefRange> r;
    // Well conditioned: A = 2.5, D = 1.5, delta = 104 * 2^-53, so D is about
    // 1.3e-14, far inside SPEC's 1e-12: 2e-12 off still fails.
    const std::vector<double> x{1, 2, 3, 4};
    const std::vector<double> y = ref_mvn(packed(x, {4}), {0}, p, &r);
    EXPECT_LT(r[0].hi[0] - r[0].lo[0], 3e-14);
    EXPECT_TRUE(passes(r[0], y[0] * (1 + 1e-12), SIMDAX_DTYPE_FLOAT64, f64));
    EXPECT_FALSE(passes(r[0], y[0] * (1 + 2e-12), SIMDAX_DTYPE_FLOAT64, f64));
    EXPECT_FALSE(passes(r[0], kNaN, SIMDAX_DTYPE_FLOAT64, f64));

    // An infinite Scale on x = mean (a constant group): NaN or either
    // infinity, and no finite value (the old allowance accepted anything).
    const std::vector<double> c{1, 1, 1}, inf_scale{kInf};
    const StridedView s = packed(inf_scale, {1});
    p.scale = &s;
    p.normalize_variance = false;
    ref_mvn(packed(c, {3}), {0}, p, &r);
    EXPECT_TRUE(passes(r[1], kNaN, SIMDAX_DTYPE_FLOAT64, f64));
    EXPECT_TRUE(passes(r[1], kInf, SIMDAX_DTYPE_FLOAT64, f64));
    EXPECT_TRUE(passes(r[1], -kInf, SIMDAX_DTYPE_FLOAT64, f64));
    EXPECT_FALSE(passes(r[1], 0.0, SIMDAX_DTYPE_FLOAT64, f64));
    EXPECT_FALSE(passes(r[1], 1e308, SIMDAX_DTYPE_FLOAT64, f64));
    // With a Bias of +inf: -inf + inf is NaN, so NaN or +inf only.
    const std::vector<double> inf_bias{kInf};
    const StridedView bias = packed(inf_bias, {1});
    p.bias = &bias;
    ref_mvn(packed(c, {3}), {0}, p, &r);
    EXPECT_TRUE(passes(r[1], kNaN, SIMDAX_DTYPE_FLOAT64, f64));
    EXPECT_TRUE(passes(r[1], kInf, SIMDAX_DTYPE_FLOAT64, f64));
    EXPECT_FALSE(passes(r[1], -kInf, SIMDAX_DTYPE_FLOAT64, f64));
    p.bias = nullptr;
    // {0, 4.9e-324} has mean 2.5e-324, which a double mean rounds to 0 (eta):
    // the sign of 0 - mean is not certain either.
    const std::vector<double> sub{0, 4.9406564584124654e-324};
    ref_mvn(packed(sub, {2}), {0}, p, &r);
    EXPECT_TRUE(passes(r[0], kNaN, SIMDAX_DTYPE_FLOAT64, f64));
    // ... and beside a deviation beyond the allowance, its sign's infinity.
    const std::vector<double> two{1, 2};
    ref_mvn(packed(two, {2}), {0}, p, &r);
    EXPECT_TRUE(passes(r[1], kInf, SIMDAX_DTYPE_FLOAT64, f64));
    EXPECT_FALSE(passes(r[1], kNaN, SIMDAX_DTYPE_FLOAT64, f64));
    EXPECT_FALSE(passes(r[1], -kInf, SIMDAX_DTYPE_FLOAT64, f64));

    // v beyond double: rounded to -inf, where gelu's formula is NaN (and
    // nothing else: the interval lies beyond double too).
    const std::vector<double> big{1e308, -1e308}, four{4};
    const StridedView s4 = packed(four, {1});
    p.scale = &s4;
    const simdax_activation_desc gelu{SIMDAX_ACTIVATION_GELU, 0, 0, 0};
    p.act = &gelu;
    ref_mvn(packed(big, {2}), {0}, p, &r);
    EXPECT_TRUE(passes(r[1], kNaN, SIMDAX_DTYPE_FLOAT64, f64));
    EXPECT_FALSE(passes(r[1], -0.0, SIMDAX_DTYPE_FLOAT64, f64));
    EXPECT_TRUE(passes(r[0], kInf, SIMDAX_DTYPE_FLOAT64, f64));
    // An interval over all of double: softsign is NaN at +-inf but takes
    // every value of (-1, 1) next to them.
    const std::vector<double> huge_scale{1e300};
    const StridedView sh = packed(huge_scale, {1});
    p.scale = &sh;
    const simdax_activation_desc softsign{SIMDAX_ACTIVATION_SOFTSIGN, 0, 0, 0};
    p.act = &softsign;
    const std::vector<double> mixed{1e308, -1e308, 0.5};
    ref_mvn(packed(mixed, {3}), {0}, p, &r);
    for (double ok : {-1.0, 0.999, kNaN}) EXPECT_TRUE(passes(r[2], ok, SIMDAX_DTYPE_FLOAT64, f64)) << ok;
    EXPECT_FALSE(passes(r[2], 1.5, SIMDAX_DTYPE_FLOAT64, f64));

    // A jump inside the interval: shrink(bias 0.25, threshold 0.5) at
    // v = +-0.5 exactly takes 0 and, just past the threshold, 0.25; the
    // values between are accepted, beyond them not.
    p.scale = nullptr;
    const simdax_activation_desc shrink{SIMDAX_ACTIVATION_SHRINK, 0.25f, 0.5f, 0};
    p.act = &shrink;
    const std::vector<double> x3{0, 1};
    const std::vector<double> y3 = ref_mvn(packed(x3, {2}), {0}, p, &r);
    EXPECT_EQ(y3[1], 0.0);
    for (double ok : {0.0, 0.1, 0.25}) EXPECT_TRUE(passes(r[1], ok, SIMDAX_DTYPE_FLOAT64, f64)) << ok;
    EXPECT_FALSE(passes(r[1], 0.3, SIMDAX_DTYPE_FLOAT64, f64));
    EXPECT_FALSE(passes(r[1], -0.01, SIMDAX_DTYPE_FLOAT64, f64));
}

TEST(ReferenceSelfTest, ActivationsByHand) {
    auto act = [](simdax_activation_type t, float a = 0, float b = 0, float g = 0) {
        return simdax_activation_desc{t, a, b, g};
    };
    EXPECT_DOUBLE_EQ(ref_activation(0.0, act(SIMDAX_ACTIVATION_SIGMOID)), 0.5);
    EXPECT_NEAR(ref_activation(1.0, act(SIMDAX_ACTIVATION_GELU)), 0.8413447460685429, 1e-15);
    EXPECT_NEAR(ref_activation(-1.0, act(SIMDAX_ACTIVATION_GELU)), -0.15865525393145707, 1e-15);
    EXPECT_DOUBLE_EQ(ref_activation(0.0, act(SIMDAX_ACTIVATION_SOFTPLUS, 1)), std::log(2.0));
    EXPECT_DOUBLE_EQ(ref_activation(100.0, act(SIMDAX_ACTIVATION_SOFTPLUS, 2)), 100.0);
    EXPECT_DOUBLE_EQ(ref_activation(1.0, act(SIMDAX_ACTIVATION_PARAMETRIC_SOFTPLUS, 2, 3)),
                     2 * std::log1p(std::exp(3.0)));
    EXPECT_DOUBLE_EQ(ref_activation(-1.0, act(SIMDAX_ACTIVATION_CELU, 2)), 2 * (std::exp(-0.5) - 1));
    EXPECT_DOUBLE_EQ(ref_activation(-1.0, act(SIMDAX_ACTIVATION_ELU, 0.5)), 0.5 * (std::exp(-1.0) - 1));
    EXPECT_DOUBLE_EQ(ref_activation(2.0, act(SIMDAX_ACTIVATION_SCALED_ELU, 1.5, 0, 2)), 4.0);
    EXPECT_DOUBLE_EQ(ref_activation(0.7, act(SIMDAX_ACTIVATION_SHRINK, 0.25, 0.5)), 0.45);
    EXPECT_DOUBLE_EQ(ref_activation(-0.7, act(SIMDAX_ACTIVATION_SHRINK, 0.25, 0.5)), -0.45);
    EXPECT_EQ(ref_activation(0.3, act(SIMDAX_ACTIVATION_SHRINK, 0.25, 0.5)), 0.0);
    EXPECT_EQ(ref_activation(1.0, act(SIMDAX_ACTIVATION_THRESHOLDED_RELU, 1)), 0.0);
    EXPECT_DOUBLE_EQ(ref_activation(-3.0, act(SIMDAX_ACTIVATION_SOFTSIGN)), -0.75);
    EXPECT_DOUBLE_EQ(ref_activation(-2.0, act(SIMDAX_ACTIVATION_LEAKY_RELU, 0.25f)), -0.5);
    EXPECT_DOUBLE_EQ(ref_activation(3.0, act(SIMDAX_ACTIVATION_HARD_SIGMOID, 0.25f, 0.5f)), 1.0);
    EXPECT_DOUBLE_EQ(ref_activation(1.0, act(SIMDAX_ACTIVATION_SCALED_TANH, 2, 0.5)), 2 * std::tanh(0.5));
    EXPECT_TRUE(std::isnan(ref_activation(kNaN, act(SIMDAX_ACTIVATION_THRESHOLDED_RELU, 1))));
    EXPECT_TRUE(std::isnan(ref_hard_sigmoid(kNaN, 0.2, 0.5)));
    EXPECT_EQ(ref_hard_sigmoid(kInf, 0.2, 0.5), 1.0);
}

}  // namespace
