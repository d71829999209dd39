// MVN's epsilon placement (issue 17): DirectML adds epsilon to the variance,
// ONNX to the standard deviation. The ONNX helpers must give ONNX's results
// (the near-constant group), the _EX descriptor both placements, and
// the plain descriptor DirectML's, each against a float64 evaluation here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <vector>

#include "simdax/simdax.h"
#include "simdax/simdax.hpp"

namespace {

// The example: one group of four along axis 1.
const std::vector<float> kNearConstant = {1.0f, 1.00002f, 1.0f, 1.00002f};
const int64_t kSizes[2] = {1, 4};

// (x - mean) / (sqrt(var) + eps) or / sqrt(var + eps), in double over the
// float inputs, eps the float value the library receives.
std::vector<double> expected(const std::vector<float>& x, float eps, bool on_stddev) {
    double mean = 0, var = 0;
    for (float v : x) mean += double(v) / double(x.size());
    for (float v : x) var += (double(v) - mean) * (double(v) - mean) / double(x.size());
    const double divisor = on_stddev ? std::sqrt(var) + double(eps) : std::sqrt(var + double(eps));
    std::vector<double> y;
    for (float v : x) y.push_back((double(v) - mean) / divisor);
    return y;
}

void expect_close(const std::vector<float>& got, const std::vector<double>& ref) {
    ASSERT_EQ(got.size(), ref.size());
    for (size_t i = 0; i < ref.size(); ++i)
        EXPECT_NEAR(got[i], ref[i], 1e-5 * std::max(1.0, std::fabs(ref[i]))) << "element " << i;
}

TEST(MvnPlacement, OnnxHelperGivesOnnxResultOnNearConstantGroup) {
    const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 2, kSizes, nullptr};
    const int64_t onnx_axes[1] = {-1};
    uint32_t axes[SIMDAX_MAX_RANK];
    simdax_mvn_ex_desc d;
    ASSERT_EQ(simdax_onnx_mvn_desc(&t, &t, onnx_axes, 1, axes, &d), SIMDAX_OK) << simdax_last_error();
    std::vector<float> y(4);
    ASSERT_EQ(simdax_mean_variance_normalization_ex(&d, kNearConstant.data(), nullptr, nullptr, y.data()),
              SIMDAX_OK)
        << simdax_last_error();
    const std::vector<double> ref = expected(kNearConstant, 1e-9f, true);
    EXPECT_NEAR(ref[0], -0.9999, 1e-4);  // ONNX's value, as the issue states it
    expect_close(y, ref);

    // The same through a created operator, which reports the _EX type.
    const simdax_operator_desc od{SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX, &d};
    simdax_operator* op = nullptr;
    ASSERT_EQ(simdax_operator_create(&od, &op), SIMDAX_OK) << simdax_last_error();
    EXPECT_EQ(simdax_operator_get_type(op), SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX);
    std::vector<float> y2(4);
    const simdax_bindings b{kNearConstant.data(), nullptr, nullptr, y2.data()};
    ASSERT_EQ(simdax_operator_execute(op, &b), SIMDAX_OK);
    simdax_operator_destroy(op);
    expect_close(y2, ref);
}

TEST(MvnPlacement, CppOnnxFactoryGivesOnnxResult) {
    const simdax::cpp::Operator op = simdax::cpp::onnx_mvn({1, 4}, std::vector<int64_t>{1});
    std::vector<float> y(4);
    op.execute(kNearConstant.data(), y.data());
    expect_close(y, expected(kNearConstant, 1e-9f, true));
    simdax::cpp::MvnOptions o;
    o.epsilon = 1e-9f;
    o.epsilon_placement = SIMDAX_EPSILON_ON_STDDEV;
    simdax::cpp::mvn({1, 4}, {1}, SIMDAX_DTYPE_FLOAT32, o).execute(kNearConstant.data(), y.data());
    expect_close(y, expected(kNearConstant, 1e-9f, true));
}

// The plain descriptor (and _EX with ON_VARIANCE) keeps DirectML's formula:
// -0.30 on the same group, bit for bit the same through both descriptors.
TEST(MvnPlacement, VariancePlacementIsDirectMl) {
    const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 2, kSizes, nullptr};
    const uint32_t axes[1] = {1};
    const simdax_mvn_desc plain{&t, nullptr, nullptr, &t, 1, axes, 1, 1e-9f, nullptr};
    std::vector<float> y(4), y_ex(4);
    ASSERT_EQ(simdax_mean_variance_normalization(&plain, kNearConstant.data(), nullptr, nullptr, y.data()),
              SIMDAX_OK);
    const std::vector<double> ref = expected(kNearConstant, 1e-9f, false);
    EXPECT_NEAR(ref[0], -0.3019, 1e-4);
    expect_close(y, ref);
    const simdax_mvn_ex_desc ex{plain, SIMDAX_EPSILON_ON_VARIANCE};
    ASSERT_EQ(simdax_mean_variance_normalization_ex(&ex, kNearConstant.data(), nullptr, nullptr, y_ex.data()),
              SIMDAX_OK);
    EXPECT_EQ(std::memcmp(y.data(), y_ex.data(), y.size() * sizeof(float)), 0);
}

// Both placements where the planner picks each loop form: cols (a group per
// lane), rows, and groups cut into parts (over 65536 elements); epsilon
// large enough against the spread to tell the placements apart.
TEST(MvnPlacement, BothPlacementsOnEveryLane) {
    const int64_t sizes[2] = {37, 3};
    const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 2, sizes, nullptr};
    std::vector<float> x(37 * 3);
    for (size_t i = 0; i < x.size(); ++i) x[i] = 2.0f + 0.01f * float((i * 7919) % 13) * float(1 + i % 3);
    const uint32_t axes[1] = {0};  // columns: one group per lane
    for (auto placement : {SIMDAX_EPSILON_ON_VARIANCE, SIMDAX_EPSILON_ON_STDDEV}) {
        const simdax_mvn_ex_desc d{{&t, nullptr, nullptr, &t, 1, axes, 1, 1e-3f, nullptr}, placement};
        std::vector<float> y(x.size());
        ASSERT_EQ(simdax_mean_variance_normalization_ex(&d, x.data(), nullptr, nullptr, y.data()), SIMDAX_OK);
        for (int lane = 0; lane < 3; ++lane) {
            std::vector<float> g, got;
            for (int j = 0; j < 37; ++j) {
                g.push_back(x[size_t(j) * 3 + size_t(lane)]);
                got.push_back(y[size_t(j) * 3 + size_t(lane)]);
            }
            expect_close(got, expected(g, 1e-3f, placement == SIMDAX_EPSILON_ON_STDDEV));
        }
    }
}

TEST(MvnPlacement, BothPlacementsOnRowsAndParts) {
    for (int64_t n : {int64_t(67), int64_t(70001)}) {
        const int64_t sizes[2] = {2, n};
        const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 2, sizes, nullptr};
        std::vector<float> x(size_t(2 * n));
        for (size_t i = 0; i < x.size(); ++i) x[i] = -3.0f + 0.02f * float((i * 7919) % 11);
        const uint32_t axes[1] = {1};
        for (auto placement : {SIMDAX_EPSILON_ON_VARIANCE, SIMDAX_EPSILON_ON_STDDEV}) {
            const simdax_mvn_ex_desc d{{&t, nullptr, nullptr, &t, 1, axes, 1, 1e-3f, nullptr}, placement};
            std::vector<float> y(x.size());
            ASSERT_EQ(simdax_mean_variance_normalization_ex(&d, x.data(), nullptr, nullptr, y.data()),
                      SIMDAX_OK);
            for (size_t g = 0; g < 2; ++g) {
                const std::vector<float> xg(x.begin() + ptrdiff_t(g) * n, x.begin() + ptrdiff_t(g + 1) * n);
                const std::vector<float> yg(y.begin() + ptrdiff_t(g) * n, y.begin() + ptrdiff_t(g + 1) * n);
                expect_close(yg, expected(xg, 1e-3f, placement == SIMDAX_EPSILON_ON_STDDEV));
            }
        }
    }
}

// sqrt(var) + epsilon below float's reach (values near 1e-20, epsilon
// 1e-20): such a group is evaluated in double, still ONNX's formula.
TEST(MvnPlacement, TinyStddevDivisorOutsideTheFloatRange) {
    const int64_t sizes[1] = {5};
    const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 1, sizes, nullptr};
    const std::vector<float> x = {1e-20f, 1.1e-20f, 0.9e-20f, 1.05e-20f, 1e-20f};
    const uint32_t axes[1] = {0};
    for (auto placement : {SIMDAX_EPSILON_ON_VARIANCE, SIMDAX_EPSILON_ON_STDDEV}) {
        const simdax_mvn_ex_desc d{{&t, nullptr, nullptr, &t, 1, axes, 1, 1e-20f, nullptr}, placement};
        std::vector<float> y(x.size());
        ASSERT_EQ(simdax_mean_variance_normalization_ex(&d, x.data(), nullptr, nullptr, y.data()), SIMDAX_OK);
        const std::vector<double> ref = expected(x, 1e-20f, placement == SIMDAX_EPSILON_ON_STDDEV);
        for (size_t i = 0; i < x.size(); ++i)
            EXPECT_NEAR(y[i], ref[i], 1e-6 * std::fabs(ref[i]) + 1e-30)
                << "element " << i << " placement " << placement;
    }
}

// Rows scaled across the fast path's limits (operators/mvn/mvn_wide.hpp,
// fits_fast_path): the divisor across 2^-50 under each placement and
// epsilon, the values across 2^-100 from zero. Whichever path a row takes,
// its output is the float64 formula's.
TEST(MvnPlacement, RowsAcrossTheFastPathLimits) {
    constexpr int64_t kRow = 67;  // vector body and tail
    const int64_t sizes[2] = {2, kRow};
    const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 2, sizes, nullptr};
    const uint32_t axes[1] = {1};
    for (int e2 = -36; e2 >= -140; e2 -= 2) {
        std::vector<float> x(size_t(2 * kRow));
        for (int64_t i = 0; i < kRow; ++i) {
            x[size_t(i)] = std::ldexp(1.0f + float(i % 7) * 0.125f, e2);  // mean far from 0
            x[size_t(kRow + i)] = std::ldexp(float(i % 5) - 2.0f + 0.25f * float(i % 2), e2);  // near 0
        }
        for (auto placement : {SIMDAX_EPSILON_ON_VARIANCE, SIMDAX_EPSILON_ON_STDDEV}) {
            for (float eps : {0.0f, 1e-30f, 1e-20f, 1e-5f}) {
                const simdax_mvn_ex_desc d{{&t, nullptr, nullptr, &t, 1, axes, 1, eps, nullptr}, placement};
                std::vector<float> y(x.size());
                ASSERT_EQ(simdax_mean_variance_normalization_ex(&d, x.data(), nullptr, nullptr, y.data()),
                          SIMDAX_OK)
                    << simdax_last_error();
                for (size_t g = 0; g < 2; ++g) {
                    const std::vector<float> xg(x.begin() + ptrdiff_t(g) * kRow,
                                                x.begin() + ptrdiff_t(g + 1) * kRow);
                    const std::vector<double> ref = expected(xg, eps, placement == SIMDAX_EPSILON_ON_STDDEV);
                    for (size_t i = 0; i < ref.size(); ++i)
                        ASSERT_NEAR(y[g * size_t(kRow) + i], ref[i], 1e-5 * std::fabs(ref[i]) + 1e-37)
                            << "2^" << e2 << " row " << g << " element " << i << " eps " << eps
                            << " placement " << placement;
                }
            }
        }
    }
}

TEST(MvnPlacement, OnnxDescFillsEveryField) {
    const int64_t sizes[4] = {2, 3, 4, 5};
    const simdax_tensor_desc in{SIMDAX_DTYPE_FLOAT16, 4, sizes, nullptr}, out = in;
    uint32_t axes[SIMDAX_MAX_RANK];
    simdax_mvn_ex_desc d;
    std::memset(&d, 0xAB, sizeof d);
    ASSERT_EQ(simdax_onnx_mvn_desc(&in, &out, nullptr, 0, axes, &d), SIMDAX_OK) << simdax_last_error();
    EXPECT_EQ(d.mvn.input, &in);
    EXPECT_EQ(d.mvn.output, &out);
    EXPECT_EQ(d.mvn.scale, nullptr);
    EXPECT_EQ(d.mvn.bias, nullptr);
    EXPECT_EQ(d.mvn.fused_activation, nullptr);
    ASSERT_EQ(d.mvn.axis_count, 3u);
    EXPECT_EQ(d.mvn.axes, axes);
    EXPECT_EQ(std::vector<uint32_t>(axes, axes + 3), (std::vector<uint32_t>{0, 2, 3}));
    EXPECT_EQ(d.mvn.normalize_variance, 1);
    EXPECT_EQ(d.mvn.epsilon, 1e-9f);
    EXPECT_EQ(d.epsilon_placement, SIMDAX_EPSILON_ON_STDDEV);
}

// Bad input: a status and a message, and neither *desc nor axes written.
TEST(MvnPlacement, OnnxHelpersWriteNothingOnError) {
    const int64_t sizes[2] = {2, 3};
    const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 2, sizes, nullptr};
    uint32_t axes[SIMDAX_MAX_RANK];
    std::memset(axes, 0x5A, sizeof axes);
    simdax_mvn_ex_desc d, before;
    std::memset(&d, 0x5A, sizeof d);
    std::memcpy(&before, &d, sizeof d);
    const uint32_t axes_before = axes[0];
    const int64_t repeated[2] = {0, -2};  // 0 then its alias: axes[0] would be written first
    EXPECT_EQ(simdax_onnx_mvn_desc(&t, &t, repeated, 2, axes, &d), SIMDAX_ERROR_INVALID_AXES);
    EXPECT_NE(std::strstr(simdax_last_error(), "axes[1]"), nullptr) << simdax_last_error();
    EXPECT_EQ(std::memcmp(&d, &before, sizeof d), 0);
    EXPECT_EQ(axes[0], axes_before);
    uint32_t count = 77;
    float eps = 7.f;
    EXPECT_EQ(simdax_onnx_mvn_axes(2, repeated, 2, axes, &count, &eps), SIMDAX_ERROR_INVALID_AXES);
    EXPECT_EQ(axes[0], axes_before);
    EXPECT_EQ(count, 77u);
    EXPECT_EQ(eps, 7.f);
    EXPECT_EQ(simdax_onnx_mvn_desc(nullptr, &t, nullptr, 0, axes, &d), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_EQ(simdax_onnx_mvn_desc(&t, &t, nullptr, 0, axes, nullptr), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_EQ(simdax_onnx_mvn_desc(&t, &t, nullptr, 0, nullptr, &d), SIMDAX_ERROR_NULL_POINTER);
    // The default {0,2,3} needs rank 4.
    EXPECT_EQ(simdax_onnx_mvn_desc(&t, &t, nullptr, 0, axes, &d), SIMDAX_ERROR_INVALID_AXES);
    EXPECT_EQ(std::memcmp(&d, &before, sizeof d), 0);
}

}  // namespace
