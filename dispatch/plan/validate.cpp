// Validation of the generic descriptor: the operator's own rules are its
// descriptor's (operator_def.hpp).
#include "error.hpp"
#include "problem.hpp"

namespace simdax {

simdax_status validate(const simdax_operator_desc* desc, Problem* p) {
    *p = Problem{};
    p->act = ActParams{SIMDAX_ACTIVATION_IDENTITY, 0, 0, 0};
    if (!desc) return fail(SIMDAX_ERROR_NULL_POINTER, "desc: operator descriptor is NULL");
    if (!desc->desc)
        return fail(SIMDAX_ERROR_NULL_POINTER,
                    "desc->desc: the operator's own descriptor (simdax_*_desc) is NULL");
    p->type = desc->type;
    p->def = operator_def(desc->type);
    if (!p->def)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "desc->type: %d is not a simdax_operator_type",
                    int(desc->type));
    return p->def->validate(desc->desc, p);
}

simdax_status validate_info(const simdax_structure_header* info, Problem* p) {
    *p = Problem{};
    p->act = ActParams{SIMDAX_ACTIVATION_IDENTITY, 0, 0, 0};
    if (!info) return fail(SIMDAX_ERROR_NULL_POINTER, "info: is NULL");
    p->def = operator_def_for_info(info->type);
    if (!p->def)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT,
                    "info.type: %d is not a simdax_structure_type of a create-info structure",
                    int(info->type));
    if (info->size < p->def->info_size)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT,
                    "info.size: %u is smaller than the %s create-info structure (%zu bytes)", info->size,
                    p->def->name, p->def->info_size);
    p->type = p->def->type;
    return p->def->validate(reinterpret_cast<const char*>(info) + sizeof(simdax_structure_header), p);
}

}  // namespace simdax
