// The one-shot calls (simdax_log_softmax(), ...): create, execute, destroy.
#pragma once

#include "plan.hpp"
#include "simdax/simdax.h"

namespace simdax {

// Messages name the buffers as the one-shot calls' parameters (input, ...).
simdax_status one_shot(simdax_operator_type type, const void* desc, const simdax_bindings& b);
// The same for an operator with more operands than simdax_bindings holds:
// at[o] is operand o's buffer (nullptr: not bound).
simdax_status one_shot_operands(simdax_operator_type type, const void* desc,
                                const void* const (&at)[kOperands]);

}  // namespace simdax
