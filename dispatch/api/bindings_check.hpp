// What execute checks of its buffers before it runs a plan.
#pragma once

#include "plan.hpp"

namespace simdax {

// The buffers of one execution by operand, with their stated lengths.
// at[o]: element (0, ..., 0), nullptr when not bound; inputs are only read.
// Execute hands the Buffers part to the plan as it is.
struct BoundOperands : Buffers {
    unsigned bound;              // a bit per operand whose at[] is not nullptr
    unsigned sized;              // a bit per operand whose length was stated ...
    uint64_t before[kOperands];  // ... bytes of the buffer before at[o] (only where sized)
    uint64_t after[kOperands];   // ... and from at[o] on
};

// From the bindings of simdax_operator_execute (no lengths). Inline: every
// call of the execute path takes it.
inline BoundOperands bound_operands(const simdax_bindings* b) {
    BoundOperands out;  // before/after: read only where sized
    for (int o = kBias + 1; o < kOperands; ++o) out.at[o] = nullptr;
    out.at[kX] = static_cast<char*>(const_cast<void*>(b->input));
    out.at[kY] = static_cast<char*>(b->output);
    out.at[kScale] = static_cast<char*>(const_cast<void*>(b->scale));
    out.at[kBias] = static_cast<char*>(const_cast<void*>(b->bias));
    out.bound = (b->input ? bit(kX) : 0u) | (b->output ? bit(kY) : 0u) | (b->scale ? bit(kScale) : 0u) |
                (b->bias ? bit(kBias) : 0u);
    out.sized = 0;
    return out;
}

// NULL buffers the plan reads or writes, buffers shorter than the views
// they hold, and any overlap of the output with an input that the operator
// forbids; warns (log callback) about a bound operand the plan ignores.
// `where` prefixes the argument names in messages: "bindings." for
// execute, "" for the one-shot calls (whose parameters are input, scale,
// bias, output), "bindings.operands" for execute_bound ("[1]" follows).
simdax_status check_bindings(const Plan& p, const BoundOperands& b, const char* where);

}  // namespace simdax
