// One AttentionSoftmax test case: its operands in guarded buffers
// (support/tensor_buffer.hpp), run through the library and checked against
// the float64 reference (support/attention_reference.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "simdax/simdax.h"

namespace sxt {

enum class Layout { packed, padded, negative, key_strided };

struct Case {
    simdax_dtype dt = SIMDAX_DTYPE_FLOAT32;
    std::vector<int64_t> shape;
    bool mask = false;
    simdax_dtype mask_dt = SIMDAX_DTYPE_FLOAT32;
    std::vector<bool> mask_bcast;    // per dim: size 1
    bool mask_zero_strides = false;  // broadcast by explicit stride 0 at full size
    bool slopes = false, sinks = false, lse = false, log = false, in_place = false;
    bool per_query = false;  // slopes and sinks per query too, not only per head
    float scale = 1, softcap = 0;
    simdax_causal causal = SIMDAX_CAUSAL_NONE;
    uint32_t window = 0;
    Layout layout = Layout::packed;
    double nan_rate = 0, inf_rate = 0, neg_inf_mask_rate = 0.1;
    uint32_t seed = 1;
    // Gap elements before and after y's span; 0: y ends at its guard page,
    // at the vector alignment when its bytes are a multiple of 64.
    int64_t y_gaps = 2;
};

// Runs c through create + execute_bound (or the one-shot call) and checks
// every output element and the log-sum-exp (gtest failures).
void run_attention_case(const Case& c, bool one_shot = false);

}  // namespace sxt
