// Which ISA new operators use: the best one this CPU, OS and build support,
// under the cap from SIMDAX_MAX_ISA or simdax_set_max_isa().
#pragma once

#include "simdax/simdax.h"

namespace simdax {

// Compiled in and runnable here.
bool isa_usable(simdax_isa isa);

// SIMDAX_ERROR_INVALID_ARGUMENT (with its message) while SIMDAX_MAX_ISA
// holds something that is not an ISA name and no simdax_set_max_isa() call
// has replaced it; SIMDAX_OK otherwise.
simdax_status check_max_isa_env();

}  // namespace simdax
