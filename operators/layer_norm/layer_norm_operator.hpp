// What the LayerNormalization and RMSNormalization definitions share: the
// validation of their descriptors (layer_norm_validate.cpp) and the
// executor (layer_norm_execute.cpp).
#pragma once

#include "problem.hpp"

namespace simdax {

// The fields both descriptors have, read from either.
struct NormDescView {
    const simdax_tensor_desc* input;
    const simdax_tensor_desc* scale;
    const simdax_tensor_desc* bias;  // LayerNormalization only
    const simdax_tensor_desc* output;
    int32_t axis;
    float epsilon;
    int32_t stash_type;
    const simdax_tensor_desc* skip;
    const simdax_tensor_desc* skip_bias;
    const simdax_tensor_desc* skip_sum;
    const simdax_tensor_desc* mean;         // LayerNormalization only
    const simdax_tensor_desc* inv_std_dev;  // LayerNormalization only
};

// Every rule of both descriptors (docs/layer_normalization.md); fills p.
simdax_status validate_norm(const NormDescView& d, Problem* p);

// Runs a plan of either operator: groups on the caller's pool, each row
// read once (layer_norm_execute.cpp).
void execute_norm(const Plan& plan, const Buffers& b, const simdax_parallel* par);

}  // namespace simdax
