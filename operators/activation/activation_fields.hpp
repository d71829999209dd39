// Which of alpha/beta/gamma each activation reads (simdax.h lists them):
// validation checks and keeps those only, the verbose line prints them.
#pragma once

#include "simdax/simdax.h"

namespace simdax {

enum ActField : unsigned { kAlpha = 1u, kBeta = 2u, kGamma = 4u };

// The ActField bits of an activation type (0 for an unknown one).
unsigned activation_fields(simdax_activation_type type);

}  // namespace simdax
