// The C API's names and versions: the library version, the status and
// activation names, the activation defaults and the dtype sizes.
#include <gtest/gtest.h>

#include <cstdio>

#include "simdax/simdax.h"
#include "support/random_case.hpp"

namespace {

using namespace sxt;

TEST(Api, Version) {
    char want[32];
    std::snprintf(want, sizeof want, "%d.%d.%d", SIMDAX_VERSION_MAJOR, SIMDAX_VERSION_MINOR,
                  SIMDAX_VERSION_PATCH);
    ASSERT_NE(simdax_version(), nullptr);
    EXPECT_STREQ(simdax_version(), want);
}

TEST(Api, StatusNames) {
    const char* names[] = {"SIMDAX_OK",
                           "SIMDAX_ERROR_NULL_POINTER",
                           "SIMDAX_ERROR_INVALID_ARGUMENT",
                           "SIMDAX_ERROR_SHAPE_MISMATCH",
                           "SIMDAX_ERROR_DTYPE_MISMATCH",
                           "SIMDAX_ERROR_INVALID_AXES",
                           "SIMDAX_ERROR_OVERFLOW",
                           "SIMDAX_ERROR_OVERLAP",
                           "SIMDAX_ERROR_UNSUPPORTED",
                           "SIMDAX_ERROR_OUT_OF_MEMORY"};
    for (int i = 0; i < 10; ++i) EXPECT_STREQ(simdax_status_name(simdax_status(i)), names[i]);
    EXPECT_NE(simdax_status_name(simdax_status(1234)), nullptr);
    EXPECT_NE(simdax_status_name(simdax_status(-1)), nullptr);
}

TEST(Api, DtypeSizes) {
    EXPECT_EQ(simdax_dtype_size(SIMDAX_DTYPE_FLOAT32), 4u);
    EXPECT_EQ(simdax_dtype_size(SIMDAX_DTYPE_FLOAT16), 2u);
    EXPECT_EQ(simdax_dtype_size(SIMDAX_DTYPE_BFLOAT16), 2u);
    EXPECT_EQ(simdax_dtype_size(SIMDAX_DTYPE_FLOAT64), 8u);
    EXPECT_EQ(simdax_dtype_size(simdax_dtype(0)), 0u);
    EXPECT_EQ(simdax_dtype_size(SIMDAX_DTYPE_UINT8), 1u);
    EXPECT_EQ(simdax_dtype_size(simdax_dtype(6)), 0u);
}

TEST(Api, ActivationNamesAndDefaults) {
    for (int t = 0; t < SIMDAX_ACTIVATION_COUNT; ++t) {
        const simdax_activation_type type = simdax_activation_type(t);
        const char* name = simdax_activation_name(type);
        ASSERT_NE(name, nullptr) << t;
        EXPECT_STREQ(name, spec_activation_name(type));
        const simdax_activation_desc got = simdax_activation_default(type);
        const simdax_activation_desc want = spec_default_activation(type);
        EXPECT_EQ(got.type, type);
        // Compare only the parameters the type reads (docs/spec.md table).
        switch (type) {
            case SIMDAX_ACTIVATION_LEAKY_RELU:
            case SIMDAX_ACTIVATION_ELU:
            case SIMDAX_ACTIVATION_CELU:
            case SIMDAX_ACTIVATION_SOFTPLUS:
            case SIMDAX_ACTIVATION_THRESHOLDED_RELU: EXPECT_EQ(got.alpha, want.alpha) << name; break;
            case SIMDAX_ACTIVATION_SCALED_ELU:
                EXPECT_EQ(got.alpha, want.alpha) << name;
                EXPECT_EQ(got.gamma, want.gamma) << name;
                break;
            case SIMDAX_ACTIVATION_HARD_SIGMOID:
            case SIMDAX_ACTIVATION_SCALED_TANH:
            case SIMDAX_ACTIVATION_PARAMETRIC_SOFTPLUS:
            case SIMDAX_ACTIVATION_SHRINK:
                EXPECT_EQ(got.alpha, want.alpha) << name;
                EXPECT_EQ(got.beta, want.beta) << name;
                break;
            default: break;
        }
    }
    EXPECT_EQ(simdax_activation_name(simdax_activation_type(SIMDAX_ACTIVATION_COUNT)), nullptr);
    EXPECT_EQ(simdax_activation_name(simdax_activation_type(-1)), nullptr);
}

}  // namespace
