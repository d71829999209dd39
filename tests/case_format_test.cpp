// The simdax_case library's number formats (float16/bfloat16 codecs, ulp
// distance) and its pass rule.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "simdax/simdax.h"
#include "simdax_case.hpp"

using namespace simdax_case;

namespace {

// ------------------------------------------------------- number formats

TEST(CaseDtypeCodec, Float16RoundTripsEveryPattern) {
    for (std::uint32_t b = 0; b < 0x10000; ++b) {
        const auto bits = static_cast<std::uint16_t>(b);
        const double v = float16_bits_to_double(bits);
        if (std::isnan(v)) {
            EXPECT_TRUE(std::isnan(float16_bits_to_double(double_to_float16_bits(v))));
        } else {
            ASSERT_EQ(double_to_float16_bits(v), bits) << v;
        }
    }
}

TEST(CaseDtypeCodec, Bfloat16RoundTripsEveryPattern) {
    for (std::uint32_t b = 0; b < 0x10000; ++b) {
        const auto bits = static_cast<std::uint16_t>(b);
        const double v = bfloat16_bits_to_double(bits);
        if (std::isnan(v)) continue;
        ASSERT_EQ(double_to_bfloat16_bits(v), bits) << v;
    }
}

// Between every pair of neighbouring finite values: the midpoint goes to the
// even pattern, anything off the midpoint to the nearer one.
void expect_ties_to_even(std::uint16_t (*encode)(double), double (*decode)(std::uint16_t),
                         std::uint16_t largest_finite) {
    for (std::uint32_t b = 0; b < largest_finite; ++b) {
        const double lo = decode(static_cast<std::uint16_t>(b));
        const double hi = decode(static_cast<std::uint16_t>(b + 1));
        const double mid = lo + (hi - lo) / 2;  // exact in double
        const auto even = static_cast<std::uint16_t>((b & 1) == 0 ? b : b + 1);
        ASSERT_EQ(encode(mid), even) << mid;
        ASSERT_EQ(encode(-mid), even | 0x8000) << -mid;
        ASSERT_EQ(encode(std::nextafter(mid, 0.0)), b) << mid;
        ASSERT_EQ(encode(std::nextafter(mid, HUGE_VAL)), b + 1) << mid;
    }
}

TEST(CaseDtypeCodec, Float16RoundsToNearestEven) {
    expect_ties_to_even(double_to_float16_bits, float16_bits_to_double, 0x7bff);
}

TEST(CaseDtypeCodec, Bfloat16RoundsToNearestEven) {
    expect_ties_to_even(double_to_bfloat16_bits, bfloat16_bits_to_double, 0x7f7f);
}

TEST(CaseDtypeCodec, OverflowAndUnderflowEdges) {
    EXPECT_EQ(double_to_float16_bits(65504.0), 0x7bff);
    EXPECT_EQ(double_to_float16_bits(65519.99), 0x7bff);
    EXPECT_EQ(double_to_float16_bits(65520.0), 0x7c00);  // the tie goes up, to inf
    EXPECT_EQ(double_to_float16_bits(-1e300), 0xfc00);
    EXPECT_EQ(double_to_float16_bits(std::ldexp(1.0, -24)), 0x0001);
    EXPECT_EQ(double_to_float16_bits(std::ldexp(1.0, -25)), 0x0000);  // tie to even zero
    EXPECT_EQ(double_to_float16_bits(std::ldexp(1.5, -25)), 0x0001);
    EXPECT_EQ(double_to_float16_bits(-std::ldexp(1.0, -30)), 0x8000);
    EXPECT_EQ(double_to_float16_bits(std::numeric_limits<double>::denorm_min()), 0x0000);
    EXPECT_EQ(double_to_float16_bits(-0.0), 0x8000);
    EXPECT_EQ(double_to_float16_bits(HUGE_VAL), 0x7c00);
    EXPECT_EQ(double_to_bfloat16_bits(3.4e38), 0x7f80);  // beyond bf16's largest, 3.39e38
    EXPECT_EQ(double_to_bfloat16_bits(-HUGE_VAL), 0xff80);
}

TEST(CaseDtypeCodec, RoundsOnceStraightFromDouble) {
    // Just above the float16 midpoint between 1 and 1 + 2^-10. Through
    // float32 the excess is lost and the tie would go down to 1.
    const double x = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
    EXPECT_EQ(double_to_float16_bits(static_cast<float>(x)), 0x3c00);
    EXPECT_EQ(double_to_float16_bits(x), 0x3c01);
}

TEST(CaseDtypeCodec, Float32MatchesTheHardwareConversion) {
    std::uint64_t state = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 200000; ++i) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        // Random sign and fraction; exponents spanning subnormals to overflow.
        const int exponent = static_cast<int>((state >> 52) % 300) - 160;
        const double mantissa = static_cast<double>(state & ((1ull << 52) - 1)) / (1ull << 52);
        const double x = ((state >> 63) ? -1 : 1) * std::ldexp(1.0 + mantissa, exponent);
        const float f = static_cast<float>(x);
        std::uint32_t expected;
        std::memcpy(&expected, &f, sizeof f);
        ASSERT_EQ(double_to_float32_bits(x), expected) << x;
    }
}

TEST(CaseDtypeCodec, UlpDistance) {
    EXPECT_EQ(ulp_distance(1.0, 1.0 + std::ldexp(1.0, -10), SIMDAX_DTYPE_FLOAT16), 1u);
    EXPECT_EQ(ulp_distance(1.0, 1.0 + std::ldexp(1.0, -7), SIMDAX_DTYPE_BFLOAT16), 1u);
    EXPECT_EQ(ulp_distance(1.0, 1.0 + std::ldexp(1.0, -22), SIMDAX_DTYPE_FLOAT32), 2u);
    EXPECT_EQ(ulp_distance(1.0, std::nextafter(1.0, 0.0), SIMDAX_DTYPE_FLOAT64), 1u);
    EXPECT_EQ(ulp_distance(-0.0, 0.0, SIMDAX_DTYPE_FLOAT32), 0u);
    const double tiny = std::ldexp(1.0, -24);
    EXPECT_EQ(ulp_distance(-tiny, tiny, SIMDAX_DTYPE_FLOAT16), 2u);
    EXPECT_EQ(ulp_distance(-1.0, 1.0, SIMDAX_DTYPE_FLOAT16), 2u * 0x3c00u);
}

// ------------------------------------------------------- the pass rule

const Tolerance kExact{0, 0, 0};
const Tolerance kFloat32{1e-5, 1e-5, 0};
const Tolerance kOneUlp{1e-5, 1e-5, 1};

TEST(CasePassRule, NanReferenceNeedsNan) {
    EXPECT_TRUE(element_passes(std::nan(""), std::nan(""), SIMDAX_DTYPE_FLOAT32, kFloat32));
    EXPECT_FALSE(element_passes(0.0, std::nan(""), SIMDAX_DTYPE_FLOAT32, kFloat32));
    EXPECT_FALSE(element_passes(std::nan(""), 1.0, SIMDAX_DTYPE_FLOAT32, kFloat32));
}

TEST(CasePassRule, InfinityAfterRoundingToTheDtype) {
    // 1e39 is finite in float64 but beyond float32: the library must store inf.
    EXPECT_TRUE(element_passes(HUGE_VAL, 1e39, SIMDAX_DTYPE_FLOAT32, kFloat32));
    EXPECT_FALSE(element_passes(std::numeric_limits<float>::max(), 1e39, SIMDAX_DTYPE_FLOAT32, kFloat32));
    EXPECT_TRUE(element_passes(-HUGE_VAL, -70000.0, SIMDAX_DTYPE_FLOAT16, kOneUlp));
    EXPECT_FALSE(element_passes(HUGE_VAL, -70000.0, SIMDAX_DTYPE_FLOAT16, kOneUlp));
    // 65519 rounds to the finite 65504, so a finite result is required.
    EXPECT_TRUE(element_passes(65504.0, 65519.0, SIMDAX_DTYPE_FLOAT16, kOneUlp));
    EXPECT_FALSE(element_passes(HUGE_VAL, 65519.0, SIMDAX_DTYPE_FLOAT16, kOneUlp));
}

TEST(CasePassRule, FiniteReferenceNeedsFiniteResult) {
    const Tolerance loose{1e300, 1.0, 1000};
    EXPECT_FALSE(element_passes(HUGE_VAL, 1.0, SIMDAX_DTYPE_FLOAT32, loose));
    EXPECT_FALSE(element_passes(std::nan(""), 1.0, SIMDAX_DTYPE_FLOAT16, loose));
}

TEST(CasePassRule, AbsolutePlusRelativeBound) {
    EXPECT_TRUE(element_passes(100.0 + 1e-3, 100.0, SIMDAX_DTYPE_FLOAT64, kFloat32));
    EXPECT_FALSE(element_passes(100.0 + 1.2e-3, 100.0, SIMDAX_DTYPE_FLOAT64, kFloat32));
    EXPECT_TRUE(element_passes(-1e-5, 0.0, SIMDAX_DTYPE_FLOAT64, kFloat32));
    EXPECT_FALSE(element_passes(-1.1e-5, 0.0, SIMDAX_DTYPE_FLOAT64, kFloat32));
}

TEST(CasePassRule, UlpsCountFromTheRoundedReference) {
    const double one_up = 1.0 + std::ldexp(1.0, -10);
    const double two_up = 1.0 + std::ldexp(1.0, -9);
    const Tolerance ulps_only{0, 0, 1};
    EXPECT_TRUE(element_passes(one_up, 1.0, SIMDAX_DTYPE_FLOAT16, ulps_only));
    EXPECT_FALSE(element_passes(two_up, 1.0, SIMDAX_DTYPE_FLOAT16, ulps_only));
    EXPECT_FALSE(element_passes(one_up, 1.0, SIMDAX_DTYPE_FLOAT16, kExact));
    // ref 1.0003 rounds to 1.0 in float16; one step from there is allowed.
    EXPECT_TRUE(element_passes(one_up, 1.0003, SIMDAX_DTYPE_FLOAT16, ulps_only));
}

TEST(CasePassRule, ExactMeansEqualWithSignedZerosEqual) {
    EXPECT_TRUE(element_passes(1.0, 1.0, SIMDAX_DTYPE_FLOAT32, kExact));
    EXPECT_TRUE(element_passes(-0.0, 0.0, SIMDAX_DTYPE_FLOAT32, kExact));
    EXPECT_TRUE(element_passes(0.0, -0.0, SIMDAX_DTYPE_BFLOAT16, kExact));
    EXPECT_FALSE(element_passes(std::nextafter(1.0f, 0.0f), 1.0, SIMDAX_DTYPE_FLOAT32, kExact));
}

}  // namespace
