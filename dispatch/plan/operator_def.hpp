// What dispatch knows of an operator. Everything else about it lives in its
// folder (operators/<name>/), behind these entries; dispatch never asks
// which operator it runs.
#pragma once

#include <cstddef>

#include "plan.hpp"

namespace simdax {

struct Problem;
struct TextLine;

struct OperatorDef {
    simdax_operator_type type;
    const char* name;  // "LogSoftmax": descriptions and log lines
    // Its create-info structure (simdax_operator_create_from_info), whose
    // descriptor follows the header; 0 when the type has none.
    simdax_structure_type info_type;
    size_t info_size;
    // Reads the operator's own descriptor (the struct simdax.h names beside
    // its type) into p: tensors, axes, parameters. On failure the message
    // names the argument and the rule (validate_rules.hpp).
    simdax_status (*validate)(const void* desc, Problem* p);
    bool reduces;          // false: element-wise, no groups
    bool lane_groups;      // groups side by side may be walked as lanes (plan.hpp)
    int64_t parallel_min;  // elements below which execute stays on the calling thread
    // The kernel that takes many whole contiguous groups per call, nullptr
    // when the operator has none with the plain rows signature.
    RowsFn (*rows_kernel)(const DtypeKernels& k);
    // Runs a plan of this operator (run_plan.hpp instantiated for it).
    void (*execute)(const Plan& plan, const Buffers& b, const simdax_parallel* par);
    // Appends the operator's parameters to its description; may be nullptr.
    void (*describe)(const Problem& p, TextLine* line);
};

// The operator of a public type, nullptr for an unknown one
// (operators/operator_list.cpp).
const OperatorDef* operator_def(simdax_operator_type type);
// The operator a create-info structure type names, nullptr for none.
const OperatorDef* operator_def_for_info(simdax_structure_type type);

// A create-info structure's descriptor sits right after its header.
#define SIMDAX_CHECK_INFO_LAYOUT(info) \
    static_assert(offsetof(info, desc) == sizeof(simdax_structure_header), #info ": desc after the header")

}  // namespace simdax
