// A validated operator description in one normal form: resolved strides,
// a reduce flag per dimension, parameters checked.
#pragma once

#include "operator_def.hpp"

namespace simdax {

struct Problem {
    const OperatorDef* def;
    DType dtype;              // the input's: its kernels run
    DType dtypes[kOperands];  // each operand's
    uint32_t rank;
    int64_t sizes[SIMDAX_MAX_RANK];
    bool has[kOperands];
    int64_t strides[kOperands][SIMDAX_MAX_RANK];  // scale/bias: 0 where broadcast
    bool reduced[SIMDAX_MAX_RANK];
    ActParams act{SIMDAX_ACTIVATION_IDENTITY, 0, 0, 0};
    VarianceNorm vn;  // MVN
    OpParams params;  // the operator's own (operator_def.hpp)
    bool in_place_ok;
};

// Checks every rule of docs/spec.md "Errors" that create can see; on failure sets
// the thread's message (naming the argument) and returns its status.
simdax_status validate(const simdax_operator_desc* desc, Problem* out);
// The same from a create-info structure (simdax_operator_create_from_info).
simdax_status validate_info(const simdax_structure_header* info, Problem* out);

// Canonicalises the problem into a loop nest for the given ISA's kernels.
void make_plan(const Problem& p, simdax_isa isa, const DtypeKernels& k, Plan* out);

}  // namespace simdax
