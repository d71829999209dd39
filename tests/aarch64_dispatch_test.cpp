// aarch64 dispatch: the neonfp16 kernels (compiled with
// -march=armv8.2-a+fp16) are selected exactly when the CPU reports FP16
// arithmetic, read here straight from HWCAP (independent of
// dispatch/isa/cpu_features.cpp). The float16 operators whose entries neonfp16
// overrides run in float16_native_test.cpp: on a CPU without FP16 (qemu
// -cpu cortex-a53) an FP16 instruction there would raise SIGILL.
#include <gtest/gtest.h>

#if defined(__aarch64__) && defined(__linux__)

#include <sys/auxv.h>

#include <cstdlib>
#include <cstring>

#include "simdax/simdax.h"

namespace {

bool hwcap_fp16() {
    const unsigned long hw = getauxval(AT_HWCAP);
    const unsigned long fphp = 1ul << 9, asimdhp = 1ul << 10;  // uapi asm/hwcap.h
    return (hw & fphp) && (hw & asimdhp);
}

TEST(Aarch64Dispatch, Fp16LevelExactlyWithFp16Hardware) {
    EXPECT_EQ(simdax_isa_supported(SIMDAX_ISA_NEON), simdax_isa_compiled(SIMDAX_ISA_NEON));
    EXPECT_EQ(simdax_isa_supported(SIMDAX_ISA_NEONFP16),
              simdax_isa_compiled(SIMDAX_ISA_NEONFP16) && hwcap_fp16() ? 1 : 0);
    for (simdax_isa x86 : {SIMDAX_ISA_AVX2, SIMDAX_ISA_AVX512, SIMDAX_ISA_AVX512FP16})
        EXPECT_EQ(simdax_isa_supported(x86), 0) << simdax_isa_name(x86);
    if (!hwcap_fp16()) {
        EXPECT_NE(simdax_active_isa(), SIMDAX_ISA_NEONFP16) << "FP16 kernels chosen without FP16";
    }
    const char* want = std::getenv("SIMDAX_EXPECT_ISA");
    if (want && std::strcmp(want, "neon") == 0) {
        EXPECT_FALSE(hwcap_fp16()) << "SIMDAX_EXPECT_ISA=neon on a CPU with FP16";
        EXPECT_EQ(simdax_isa_supported(SIMDAX_ISA_NEONFP16), 0);
    }
}

}  // namespace

#endif
