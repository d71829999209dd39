#include <cstdio>

#include <simdax/simdax.h>

#include "commands.hpp"

namespace simdax_cli {

int command_info() {
    std::printf("simdax version: %s\n", simdax_version());
    std::printf("cpu name: %s\n", simdax_cpu_name());
    std::printf("cpu vendor: %s\n", simdax_cpu_vendor());
    std::printf("cpu features: %s\n", simdax_cpu_features());
    std::printf("isas:\n");
    for (int i = 0; i < SIMDAX_ISA_COUNT; ++i) {
        const auto isa = static_cast<simdax_isa>(i);
        const char* name = simdax_isa_name(isa);
        std::printf("  %-11s compiled %-3s  supported %s\n", name ? name : "?",
                    simdax_isa_compiled(isa) ? "yes" : "no", simdax_isa_supported(isa) ? "yes" : "no");
    }
    const char* active = simdax_isa_name(simdax_active_isa());
    std::printf("isa in use: %s\n", active ? active : "?");
    return kExitOk;
}

}  // namespace simdax_cli
