// The C API's ISA controls: the ISA names, what is compiled and supported,
// and the cap on the ISA of operators created afterwards.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "simdax/simdax.h"
#include "support/single_axis_op.hpp"

namespace {

TEST(Api, IsaNamesRoundTrip) {
    const char* names[SIMDAX_ISA_COUNT] = {"scalar", "avx2", "avx512", "avx512fp16", "neon", "neonfp16"};
    for (int i = 0; i < SIMDAX_ISA_COUNT; ++i) {
        const char* n = simdax_isa_name(simdax_isa(i));
        ASSERT_NE(n, nullptr) << i;
        EXPECT_STREQ(n, names[i]);
        simdax_isa back = simdax_isa(99);
        EXPECT_EQ(simdax_isa_from_name(n, &back), SIMDAX_OK) << n;
        EXPECT_EQ(back, simdax_isa(i));
        // Supported implies compiled in.
        if (simdax_isa_supported(simdax_isa(i))) {
            EXPECT_TRUE(simdax_isa_compiled(simdax_isa(i))) << n;
        }
    }
    EXPECT_EQ(simdax_isa_name(simdax_isa(SIMDAX_ISA_COUNT)), nullptr);
    EXPECT_EQ(simdax_isa_compiled(SIMDAX_ISA_SCALAR), 1);
    EXPECT_EQ(simdax_isa_supported(SIMDAX_ISA_SCALAR), 1);
    EXPECT_NE(simdax_cpu_name(), nullptr);
    EXPECT_NE(simdax_cpu_vendor(), nullptr);
    EXPECT_NE(simdax_cpu_features(), nullptr);
    EXPECT_TRUE(simdax_isa_supported(simdax_active_isa()));
}

// Lowering the cap affects operators created afterwards, not existing ones;
// restoring it brings the previous ISA back.
TEST(Api, MaxIsaCapAffectsNewOperatorsOnly) {
    const simdax_isa initial = simdax_active_isa();
    const int64_t sizes[2] = {3, 40};
    const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 2, sizes, nullptr};
    simdax_operator* before = nullptr;
    ASSERT_EQ(sxt::create_single_axis_op(SIMDAX_OPERATOR_LOG_SOFTMAX, t, t, 1, &before), SIMDAX_OK);
    ASSERT_EQ(simdax_set_max_isa(SIMDAX_ISA_SCALAR), SIMDAX_OK) << simdax_last_error();
    EXPECT_EQ(simdax_active_isa(), SIMDAX_ISA_SCALAR);
    simdax_operator* after = nullptr;
    ASSERT_EQ(sxt::create_single_axis_op(SIMDAX_OPERATOR_LOG_SOFTMAX, t, t, 1, &after), SIMDAX_OK);
    EXPECT_EQ(simdax_operator_isa(after), SIMDAX_ISA_SCALAR);
    EXPECT_EQ(simdax_operator_isa(before), initial);
    // Both still compute correctly.
    std::vector<float> x(120), y1(120), y2(120);
    for (size_t i = 0; i < x.size(); ++i) x[i] = float(std::sin(double(i)));
    const simdax_bindings b1{x.data(), nullptr, nullptr, y1.data()},
        b2{x.data(), nullptr, nullptr, y2.data()};
    EXPECT_EQ(simdax_operator_execute(before, &b1), SIMDAX_OK);
    EXPECT_EQ(simdax_operator_execute(after, &b2), SIMDAX_OK);
    for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(y1[i], y2[i], 2e-5) << i;
    ASSERT_EQ(simdax_set_max_isa(initial), SIMDAX_OK);
    EXPECT_EQ(simdax_active_isa(), initial);
    simdax_operator_destroy(before);
    simdax_operator_destroy(after);
    simdax_operator_destroy(nullptr);  // allowed, no effect
}

}  // namespace
