// ISA names and the inheritance chain (each level adds to its parent).
#include <cstring>

#include "error.hpp"
#include "tables.hpp"

namespace simdax {
namespace {
const char* const kNames[SIMDAX_ISA_COUNT] = {"scalar", "avx2",  "avx512",
                                              "avx512fp16", "neon", "neonfp16"};
const simdax_isa kParents[SIMDAX_ISA_COUNT] = {SIMDAX_ISA_SCALAR, SIMDAX_ISA_SCALAR,
                                               SIMDAX_ISA_AVX2,   SIMDAX_ISA_AVX512,
                                               SIMDAX_ISA_SCALAR, SIMDAX_ISA_NEON};
}  // namespace

simdax_isa isa_parent(simdax_isa isa) { return kParents[isa]; }

}  // namespace simdax

extern "C" {

const char* simdax_isa_name(simdax_isa isa) {
    const int i = int(isa);
    return (i >= 0 && i < SIMDAX_ISA_COUNT) ? simdax::kNames[i] : nullptr;
}

simdax_status simdax_isa_from_name(const char* name, simdax_isa* isa) {
    using namespace simdax;
    if (!name) return fail(SIMDAX_ERROR_NULL_POINTER, "name: must not be NULL");
    if (!isa) return fail(SIMDAX_ERROR_NULL_POINTER, "isa: must not be NULL");
    for (int i = 0; i < SIMDAX_ISA_COUNT; ++i) {
        if (std::strcmp(name, kNames[i]) == 0) {
            *isa = simdax_isa(i);
            return ok();
        }
    }
    return fail(SIMDAX_ERROR_INVALID_ARGUMENT,
                "name: '%s' is not an ISA (scalar, avx2, avx512, avx512fp16, neon, neonfp16)",
                name);
}

}  // extern "C"
