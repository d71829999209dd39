// Test entry point. ctest runs this binary once per ISA with SIMDAX_MAX_ISA
// set; an ISA this machine cannot run is reported as skipped (exit 77),
// never silently tested on a lower ISA and counted as passing.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "simdax/simdax.h"

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    const char* want = std::getenv("SIMDAX_MAX_ISA");
    if (want && *want) {
        simdax_isa isa;
        if (simdax_isa_from_name(want, &isa) != SIMDAX_OK) {
            std::fprintf(stderr, "SIMDAX_MAX_ISA=%s is not an ISA name\n", want);
            return 1;
        }
        if (!simdax_isa_supported(isa)) {
            std::printf("SKIP: this machine or build cannot run %s\n", want);
            return 77;
        }
        if (simdax_active_isa() != isa) {
            std::fprintf(stderr, "SIMDAX_MAX_ISA=%s but the library chose %s\n", want,
                         simdax_isa_name(simdax_active_isa()));
            return 1;
        }
    }
    // Emulated-CPU runs name the level the dispatcher must pick by itself.
    const char* expect = std::getenv("SIMDAX_EXPECT_ISA");
    if (expect && *expect && std::strcmp(expect, simdax_isa_name(simdax_active_isa())) != 0) {
        std::fprintf(stderr, "dispatcher chose %s, expected %s on this CPU\n",
                     simdax_isa_name(simdax_active_isa()), expect);
        return 1;
    }
    std::printf("simdax tests on isa: %s\n", simdax_isa_name(simdax_active_isa()));
    return RUN_ALL_TESTS();
}
