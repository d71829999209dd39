// ISA names and the inheritance chain (each level adds to its parent), from
// the ISA table (isa_list.hpp).
#include <cstring>

#include "error.hpp"
#include "isa_list.hpp"
#include "tables.hpp"

namespace simdax {
namespace {
#define SIMDAX_ISA_NAME(ENUM, name, PARENT, family, flags) #name,
const char* const kNames[] = {SIMDAX_ISA_LIST(SIMDAX_ISA_NAME)};
#undef SIMDAX_ISA_NAME
#define SIMDAX_ISA_PARENT(ENUM, name, PARENT, family, flags) SIMDAX_ISA_##PARENT,
constexpr simdax_isa kParents[] = {SIMDAX_ISA_LIST(SIMDAX_ISA_PARENT)};
#undef SIMDAX_ISA_PARENT

// Tables are composed in enum order, so a parent must come first (scalar is
// its own parent).
constexpr bool parents_first() {
    for (int i = 1; i < SIMDAX_ISA_COUNT; ++i)
        if (int(kParents[i]) >= i) return false;
    return kParents[0] == SIMDAX_ISA_SCALAR;
}
static_assert(parents_first(), "SIMDAX_ISA_LIST: a parent's row must come before its children");
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
    return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "name: '%s' is not an ISA (%s)", name, isa_list::kNameList);
}

}  // extern "C"
