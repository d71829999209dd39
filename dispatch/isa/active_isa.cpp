#include "active_isa.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cpu_features.hpp"
#include "error.hpp"
#include "isa_list.hpp"
#include "tables.hpp"

namespace simdax {
namespace {

// The cap; -1 = none. Read once from the environment on first use.
std::atomic<int> g_cap{-1};
// SIMDAX_MAX_ISA held no ISA name (written once, before g_env_bad is set);
// create reports it until simdax_set_max_isa() sets a cap.
char g_env_value[64];
std::atomic<bool> g_env_bad{false};

bool read_env_cap() {
    const char* v = std::getenv("SIMDAX_MAX_ISA");
    if (!v || !*v || std::strcmp(v, "native") == 0) return true;
    for (int i = 0; i < SIMDAX_ISA_COUNT; ++i)
        if (std::strcmp(v, simdax_isa_name(simdax_isa(i))) == 0) {
            g_cap.store(i);
            return true;
        }
    std::snprintf(g_env_value, sizeof g_env_value, "%s", v);
    g_env_bad.store(true);
    return true;
}

int cap() {
    static const bool read = read_env_cap();  // thread-safe, once
    (void)read;
    return g_cap.load(std::memory_order_relaxed);
}

// True if `isa` lies on the chain from `top` down to scalar.
bool on_chain(simdax_isa isa, simdax_isa top) {
    for (simdax_isa t = top;; t = isa_parent(t)) {
        if (t == isa) return true;
        if (t == SIMDAX_ISA_SCALAR) return false;
    }
}

}  // namespace

simdax_status check_max_isa_env() {
    cap();
    if (!g_env_bad.load(std::memory_order_acquire)) return SIMDAX_OK;
    return fail(SIMDAX_ERROR_INVALID_ARGUMENT,
                "SIMDAX_MAX_ISA: '%s' is not an ISA name (%s or native); "
                "simdax_set_max_isa() overrides it",
                g_env_value, isa_list::kNameList);
}

bool isa_usable(simdax_isa isa) {
    const int i = int(isa);
    if (i < 0 || i >= SIMDAX_ISA_COUNT) return false;
    return isa_kernels(isa) != nullptr && cpu_info().isa_ok[i];
}

}  // namespace simdax

extern "C" {

int simdax_isa_compiled(simdax_isa isa) { return simdax::isa_kernels(isa) != nullptr; }

int simdax_isa_supported(simdax_isa isa) { return simdax::isa_usable(isa); }

simdax_status simdax_set_max_isa(simdax_isa isa) {
    using namespace simdax;
    if (simdax_isa_name(isa) == nullptr)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "isa: %d is not an ISA", int(isa));
    if (isa_kernels(isa) == nullptr)
        return fail(SIMDAX_ERROR_UNSUPPORTED, "isa: %s is not compiled into this build",
                    simdax_isa_name(isa));
    if (!cpu_info().isa_ok[isa])
        return fail(SIMDAX_ERROR_UNSUPPORTED, "isa: this CPU or OS cannot run %s", simdax_isa_name(isa));
    cap();  // the environment must not override an explicit call later
    g_cap.store(int(isa));
    g_env_bad.store(false);
    return ok();
}

simdax_isa simdax_active_isa(void) {
    using namespace simdax;
    const int c = cap();
    simdax_isa best = SIMDAX_ISA_SCALAR;
    for (int i = 0; i < SIMDAX_ISA_COUNT; ++i) {
        const simdax_isa isa = simdax_isa(i);
        if (!isa_usable(isa)) continue;
        if (c >= 0 && !on_chain(isa, simdax_isa(c))) continue;
        if (on_chain(best, isa)) best = isa;  // isa extends best
    }
    return best;
}

const char* simdax_cpu_name(void) { return simdax::cpu_info().brand; }
const char* simdax_cpu_vendor(void) { return simdax::cpu_info().vendor; }
const char* simdax_cpu_features(void) { return simdax::cpu_info().features; }

}  // extern "C"
