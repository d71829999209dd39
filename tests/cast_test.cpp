// Cast between float32, float16, bfloat16 and float64: every pair, every
// float16 value, bfloat16 values across the range, rounding ties, NaN,
// overflow; packed, strided and broadcast views behind guard pages, in place
// for a same-dtype cast; run on whichever ISA the suite runs at. The
// reference is the input's value rounded once to the output's type
// (tests/support/dtype.hpp), never the library's own conversion.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "simdax/simdax.h"
#include "support/dtype.hpp"
#include "support/op_runner.hpp"

namespace {

using namespace sxt;

const simdax_dtype kDtypes[] = {SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_FLOAT16, SIMDAX_DTYPE_BFLOAT16,
                                SIMDAX_DTYPE_FLOAT64};

// Values that probe rounding: ties of float16/bfloat16, just above and below
// them, the edges of each type's range, subnormals, zeros of both signs,
// infinities and NaN.
std::vector<double> probe_values() {
    std::vector<double> v = {0.0,
                             -0.0,
                             1.0,
                             -1.0,
                             65504.0,
                             65520.0,
                             65519.99,
                             -65520.0,
                             1e-8,
                             5.96e-8,
                             2.98e-8,
                             2.9802322387695312e-08,
                             1.0 + 0x1p-11,
                             1.0 + 0x1p-11 + 0x1p-30,
                             1.0 + 3 * 0x1p-11,
                             1.0 + 0x1p-8,
                             1.0 + 3 * 0x1p-8,
                             1.0 + 0x1p-8 - 0x1p-40,
                             3.3895313892515355e38,
                             3.3961e38,
                             3.4028234663852886e38,
                             3.5e38,
                             1e-39,
                             1e-45,
                             std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::quiet_NaN(),
                             0.1,
                             -0.3,
                             1.0 / 3,
                             1e300,
                             -1e-300};
    for (int e = -30; e <= 20; e += 5)
        for (int m = 0; m < 16; ++m) v.push_back(std::ldexp(1.0 + m / 16.0 + 1.0 / 4096, e));
    return v;
}

CheckResult cast(simdax_dtype from, simdax_dtype to, const std::vector<int64_t>& sizes,
                 const std::vector<int64_t>& x_strides, const std::vector<int64_t>& y_strides,
                 const std::function<double(int64_t)>& gen, bool one_shot = false) {
    Operands io{TensorBuffer(from, sizes, x_strides, Role::Input, 1, 1), nullptr, nullptr,
                TensorBuffer(to, sizes, y_strides, Role::Output, 1, 1, true)};
    io.x.fill(gen);
    return run_and_check(op_spec(SIMDAX_OPERATOR_CAST), io, one_shot);
}

TEST(Cast, EveryPairOnProbeValues) {
    const std::vector<double> v = probe_values();
    const int64_t n = int64_t(v.size());
    for (simdax_dtype from : kDtypes)
        for (simdax_dtype to : kDtypes) {
            const CheckResult r = cast(from, to, {n}, {}, {}, [&](int64_t i) { return v[size_t(i)]; });
            EXPECT_TRUE(r.ok) << r.report;
        }
}

TEST(Cast, EveryFloat16Value) {
    for (simdax_dtype to : kDtypes) {
        const CheckResult r = cast(SIMDAX_DTYPE_FLOAT16, to, {65536}, {}, {},
                                   [](int64_t i) { return f16_bits_to_f64(uint16_t(i)); });
        EXPECT_TRUE(r.ok) << r.report;
    }
}

TEST(Cast, EveryBfloat16ValueAndFloatsBetweenThem) {
    for (simdax_dtype to : kDtypes) {
        const CheckResult r = cast(SIMDAX_DTYPE_BFLOAT16, to, {65536}, {}, {},
                                   [](int64_t i) { return bf16_bits_to_f64(uint16_t(i)); });
        EXPECT_TRUE(r.ok) << r.report;
    }
    // float32 values between bfloat16 neighbours: ties (low half 0x8000),
    // either side of them, and random low halves.
    const uint32_t lows[] = {0x8000u, 0x7FFFu, 0x8001u, 0x0001u, 0xFFFFu, 0x1234u};
    for (simdax_dtype to : {SIMDAX_DTYPE_BFLOAT16, SIMDAX_DTYPE_FLOAT16}) {
        const CheckResult r = cast(SIMDAX_DTYPE_FLOAT32, to, {65536 * 6}, {}, {}, [&](int64_t i) {
            return double(f32_from_bits((uint32_t(i / 6) << 16) | lows[i % 6]));
        });
        EXPECT_TRUE(r.ok) << r.report;
    }
}

// One NaN among 64 values to round, at every lane (either vector of a pair:
// AVX2 narrows a pair with one NaN test and selects the NaN lanes only
// when it fires), through the one-shot call with raw bits: signalling
// NaNs whose payload is only in the low half (rounding would make them
// infinities), the largest payload (rounding would carry into the sign),
// either sign. Every other lane is a tie or beside one. docs/cast.md: NaN
// stays NaN, quiet, with its sign.
TEST(Cast, FloatToBfloat16WithOneNaNInAnyLane) {
    const uint32_t nans[] = {0x7F800001u, 0xFF808000u, 0x7FFFFFFFu, 0xFFFFFFFFu, 0x7FC00000u};
    const uint32_t lows[] = {0x8000u, 0x7FFFu, 0x8001u, 0xFFFFu};
    constexpr int64_t n = 64;
    const simdax_tensor_desc xd{SIMDAX_DTYPE_FLOAT32, 1, &n, nullptr},
        yd{SIMDAX_DTYPE_BFLOAT16, 1, &n, nullptr};
    const simdax_cast_desc d{&xd, &yd};
    for (uint32_t nan : nans)
        for (int64_t at = 0; at < n; ++at) {
            std::vector<uint32_t> x(n);
            for (int64_t i = 0; i < n; ++i) x[size_t(i)] = (uint32_t(0x3F80 + i) << 16) | lows[i % 4];
            x[size_t(at)] = nan;
            std::vector<uint16_t> y(n, 0x1234);
            ASSERT_EQ(simdax_cast(&d, x.data(), y.data()), SIMDAX_OK) << simdax_last_error();
            for (int64_t i = 0; i < n; ++i) {
                const uint16_t got = y[size_t(i)];
                if (i == at) {
                    EXPECT_EQ(got & 0x7FC0, 0x7FC0) << std::hex << nan << " gave " << got;
                    EXPECT_EQ(got & 0x8000, (nan >> 16) & 0x8000) << std::hex << nan << " gave " << got;
                } else {
                    const double v = double(f32_from_bits(x[size_t(i)]));
                    EXPECT_EQ(got, f64_to_bf16_bits(v)) << std::hex << x[size_t(i)] << " beside " << nan;
                }
            }
        }
}

TEST(Cast, StridedBroadcastAndOneShot) {
    auto gen = [](int64_t i) { return std::sin(double(i)) * 1000.0; };
    for (simdax_dtype from : kDtypes)
        for (simdax_dtype to : kDtypes) {
            EXPECT_TRUE(cast(from, to, {7, 300}, {1, 7}, {}, gen).ok) << from << "->" << to;  // transposed
            EXPECT_TRUE(
                cast(from, to, {5, 64}, {0, -1}, {128, 2}, gen).ok);  // broadcast, reversed, strided out
            const CheckResult r = cast(from, to, {3, 1000}, {}, {}, gen, true);
            EXPECT_TRUE(r.ok) << r.report;
        }
}

TEST(Cast, InPlaceOnlyForOneDtype) {
    std::vector<float> buf = {1.5f, -2.25f, 3.0f, 1e30f};
    const int64_t sizes[1] = {4};
    simdax_tensor_desc f32{SIMDAX_DTYPE_FLOAT32, 1, sizes, nullptr};
    const simdax_cast_desc same{&f32, &f32};
    ASSERT_EQ(simdax_cast(&same, buf.data(), buf.data()), SIMDAX_OK) << simdax_last_error();
    EXPECT_EQ(buf, (std::vector<float>{1.5f, -2.25f, 3.0f, 1e30f}));
    simdax_tensor_desc f16{SIMDAX_DTYPE_FLOAT16, 1, sizes, nullptr};
    const simdax_cast_desc narrow{&f32, &f16};
    EXPECT_EQ(simdax_cast(&narrow, buf.data(), buf.data()), SIMDAX_ERROR_OVERLAP);
    EXPECT_EQ(buf, (std::vector<float>{1.5f, -2.25f, 3.0f, 1e30f}));
}

TEST(Cast, RefusesOtherShapesAndDescribesItself) {
    const int64_t a[2] = {4, 5}, b[2] = {5, 4};
    const simdax_tensor_desc x{SIMDAX_DTYPE_FLOAT32, 2, a, nullptr}, y{SIMDAX_DTYPE_BFLOAT16, 2, b, nullptr};
    const simdax_cast_desc d{&x, &y};
    const simdax_operator_desc od{SIMDAX_OPERATOR_CAST, &d};
    simdax_operator* op = nullptr;
    EXPECT_EQ(simdax_operator_create(&od, &op), SIMDAX_ERROR_SHAPE_MISMATCH);
    EXPECT_NE(std::strstr(simdax_last_error(), "output.sizes[0]"), nullptr) << simdax_last_error();
    const simdax_tensor_desc y2{SIMDAX_DTYPE_BFLOAT16, 2, a, nullptr};
    const simdax_cast_create_info info{
        SIMDAX_HEADER(simdax_cast_create_info, SIMDAX_STRUCTURE_TYPE_CAST_CREATE_INFO), {&x, &y2}};
    ASSERT_EQ(simdax_operator_create_from_info(&info.header, &op), SIMDAX_OK) << simdax_last_error();
    char line[512];
    simdax_operator_describe(op, line, sizeof line);
    EXPECT_EQ(std::string(line).rfind("op=Cast dtype=float32 shape=4x5 to=bfloat16", 0), 0u) << line;
    EXPECT_EQ(simdax_operator_get_type(op), SIMDAX_OPERATOR_CAST);
    simdax_operator_destroy(op);
}

}  // namespace
