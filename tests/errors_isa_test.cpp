// docs/spec.md "Errors" of the ISA controls: a cap the CPU cannot run or
// that names no ISA, and ISA names that are none.
#include <gtest/gtest.h>

#include "simdax/simdax.h"

namespace {

TEST(IsaErrors, SetMaxIsaTheCpuLacks) {
#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
    const simdax_isa foreign = SIMDAX_ISA_NEON;
#else
    const simdax_isa foreign = SIMDAX_ISA_AVX2;
#endif
    const simdax_isa before = simdax_active_isa();
    EXPECT_EQ(simdax_isa_supported(foreign), 0);
    EXPECT_EQ(simdax_set_max_isa(foreign), SIMDAX_ERROR_UNSUPPORTED);
    EXPECT_STRNE(simdax_last_error(), "");
    EXPECT_EQ(simdax_active_isa(), before) << "a failed set_max_isa changed the active ISA";
    EXPECT_NE(simdax_set_max_isa(simdax_isa(77)), SIMDAX_OK);
    EXPECT_STRNE(simdax_last_error(), "");
    EXPECT_EQ(simdax_active_isa(), before);
}

TEST(IsaErrors, IsaFromBogusName) {
    simdax_isa isa = SIMDAX_ISA_SCALAR;
    EXPECT_EQ(simdax_isa_from_name("bogus", &isa), SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_STRNE(simdax_last_error(), "");
    EXPECT_EQ(simdax_isa_from_name("", &isa), SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(simdax_isa_from_name("avx2 ", &isa), SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(simdax_isa_from_name(nullptr, &isa), SIMDAX_OK);
    EXPECT_NE(simdax_isa_from_name("avx2", nullptr), SIMDAX_OK);
}

}  // namespace
