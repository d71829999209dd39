// Which ISA new operators use: the best one this CPU, OS and build support,
// under the cap from SIMDAX_MAX_ISA or simdax_set_max_isa().
#pragma once

#include "simdax/simdax.h"

namespace simdax {

// Compiled in and runnable here.
bool isa_usable(simdax_isa isa);

}  // namespace simdax
