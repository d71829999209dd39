// What execute checks of its buffers before it runs a plan.
#pragma once

#include "plan.hpp"

namespace simdax {

// The buffers of one execution by operand, with their stated lengths.
struct BoundOperands {
    const void* at[kOperands];   // element (0, ..., 0); nullptr: not bound
    bool sized[kOperands];       // a length was stated ...
    uint64_t before[kOperands];  // ... bytes of the buffer before at[o]
    uint64_t after[kOperands];   // ... and from at[o] on
};

// From the bindings of simdax_operator_execute (no lengths).
BoundOperands bound_operands(const simdax_bindings* b);

// NULL buffers the plan reads or writes, buffers shorter than the views
// they hold, and any overlap of the output with an input that the operator
// forbids; warns (log callback) about a bound operand the plan ignores.
// `where` prefixes the argument names in messages: "bindings." for
// execute, "" for the one-shot calls (whose parameters are input, scale,
// bias, output), "bindings.operands" for execute_bound ("[1]" follows).
simdax_status check_bindings(const Plan& p, const BoundOperands& b, const char* where);

}  // namespace simdax
