// What execute checks of its buffers before it runs a plan.
#pragma once

#include "plan.hpp"

namespace simdax {

// NULL buffers the plan reads or writes, and any overlap of the output with
// an input that the operator forbids; warns (log callback) about a Scale or
// Bias the plan ignores. `where` prefixes the argument names in messages:
// "bindings." for execute, "" for the one-shot calls (whose parameters are
// input, scale, bias, output).
simdax_status check_bindings(const Plan& p, const simdax_bindings* b, const char* where);

}  // namespace simdax
