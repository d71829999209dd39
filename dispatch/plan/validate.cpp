// Validation of the generic descriptor: the operator's own rules are its
// descriptor's (operator_def.hpp).
#include "error.hpp"
#include "problem.hpp"

namespace simdax {

namespace {

// The operator's own rules on its descriptor, from a cleared problem.
simdax_status validate_as(const OperatorDef* def, const void* desc, Problem* p) {
    p->def = def;
    return def->validate(desc, p);
}

}  // namespace

simdax_status validate(const simdax_operator_desc* desc, Problem* p) {
    *p = Problem{};
    if (!desc) return fail(SIMDAX_ERROR_NULL_POINTER, "desc: operator descriptor is NULL");
    if (!desc->desc)
        return fail(SIMDAX_ERROR_NULL_POINTER,
                    "desc->desc: the operator's own descriptor (simdax_*_desc) is NULL");
    const OperatorDef* def = operator_def(desc->type);
    if (!def)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "desc->type: %d is not a simdax_operator_type",
                    int(desc->type));
    return validate_as(def, desc->desc, p);
}

simdax_status validate_info(const simdax_structure_header* info, Problem* p) {
    *p = Problem{};
    if (!info) return fail(SIMDAX_ERROR_NULL_POINTER, "info: is NULL");
    const OperatorDef* def = operator_def_for_info(info->type);
    if (!def)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT,
                    "info.type: %d is not a simdax_structure_type of a create-info structure",
                    int(info->type));
    if (info->size < def->info_size)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT,
                    "info.size: %u is smaller than the %s create-info structure (%zu bytes)", info->size,
                    def->name, def->info_size);
    return validate_as(def, reinterpret_cast<const char*>(info) + sizeof(simdax_structure_header), p);
}

}  // namespace simdax
