// Float64 reference of AttentionSoftmax (docs/attention_softmax.md),
// evaluated literally from the formula; never calls library code.
#pragma once

#include <vector>

#include "support/reference.hpp"

namespace sxt {

struct AttnRefArgs {
    const StridedView* x = nullptr;
    const StridedView* mask = nullptr;  // nullptr: none
    bool mask_bool = false;             // uint8: 0 masks
    const StridedView* slopes = nullptr;
    const StridedView* sinks = nullptr;
    double scale = 1, softcap = 0;
    simdax_causal causal = SIMDAX_CAUSAL_NONE;
    uint32_t window = 0;
    bool log = false;
};

// y packed over x's sizes; lse packed over x's sizes with the key axis 1.
struct AttnRef {
    std::vector<double> y, lse;
};

AttnRef ref_attention_softmax(const AttnRefArgs& a);

}  // namespace sxt
