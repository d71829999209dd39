// AttentionSoftmax's params in case.json (README "params"): scale, softcap,
// causal, window, log and fully_masked_rows, read onto AttentionParams.
#pragma once

#include <nlohmann/json.hpp>

#include "case_model.hpp"
#include "json_fields.hpp"

namespace simdax_case {

// Every field is optional; a missing one takes the library's "none" value
// (scale 1, softcap 0, causal "none", window 0, log false). Whether the
// values are valid (a finite scale, a window with a causal mode, ...) is the
// library's call, at create.
AttentionParams parse_attention_params(const JsonFields& fields, const nlohmann::json& params);

}  // namespace simdax_case
