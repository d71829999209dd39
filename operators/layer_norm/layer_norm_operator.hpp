// What the LayerNormalization and RMSNormalization definitions share: the
// validation of their descriptors (layer_norm_validate.cpp) and the
// executor (layer_norm_execute.cpp).
#pragma once

#include "problem.hpp"

namespace simdax {

// Both descriptors read as a LayerNormalization one (RMSNormalization's:
// no bias, mean or inv_std_dev).
using NormDescView = simdax_layer_normalization_desc;

// Every rule of both descriptors (docs/layer_normalization.md); fills p.
simdax_status validate_norm(const NormDescView& d, Problem* p);

// Runs a plan of either operator: groups on the caller's pool, each row
// read once (layer_norm_execute.cpp).
void execute_norm(const Plan& plan, const Buffers& b, const simdax_parallel* par);

}  // namespace simdax
