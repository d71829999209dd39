// The one-shot calls (simdax_log_softmax(), ...): create, execute, destroy.
#pragma once

#include "simdax/simdax.h"

namespace simdax {

// Messages name the buffers as the one-shot calls' parameters (input, ...).
simdax_status one_shot(simdax_operator_type type, const void* desc, const simdax_bindings& b);

}  // namespace simdax
