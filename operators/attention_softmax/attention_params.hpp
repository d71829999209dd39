// AttentionSoftmax's parameters as validation keeps them in the plan
// (Plan::params) for its executor.
#pragma once

#include <cstring>

#include "plan.hpp"

namespace simdax {

struct AttnParams {
    float scale;
    float softcap;
    simdax_causal causal;
    uint32_t window;
    bool log;
};
static_assert(sizeof(AttnParams) <= sizeof(OpParams::bytes), "AttnParams fits Plan::params");

inline void store_params(const AttnParams& a, OpParams* p) { std::memcpy(p->bytes, &a, sizeof a); }
inline AttnParams load_params(const OpParams& p) {
    AttnParams a;
    std::memcpy(&a, p.bytes, sizeof a);
    return a;
}

// The executor (attention_execute.cpp).
void execute_attention(const Plan& plan, const Buffers& b, const simdax_parallel* par);

}  // namespace simdax
