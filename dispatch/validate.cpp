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

}  // namespace simdax
